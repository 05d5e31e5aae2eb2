-- Relay for Neovim 0.7 and later: tree-sitter highlighting with this repository's grammar
-- and the `relay lsp` language server for every relay buffer. Options (set before the
-- plugin loads): vim.g.relay_lsp_cmd (default { "relay", "lsp" }), vim.g.relay_lsp = false
-- to not start the server, vim.g.relay_treesitter = false to keep regex highlighting.
if vim.g.loaded_relay then return end
vim.g.loaded_relay = true

vim.api.nvim_create_autocmd("FileType", {
  pattern = "relay",
  callback = function(args) require("relay").attach(args.buf) end,
})
