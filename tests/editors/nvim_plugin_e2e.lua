-- The Neovim plugin (editors/nvim) end to end in headless Neovim: the file type is
-- detected, the tree-sitter parser is compiled and registered, the buffer's highlighter
-- runs the grammar's highlights.scm, and `relay lsp` is started and publishes
-- diagnostics. Prints what it saw; nvim_plugin_e2e.py asserts on the output.
local file = os.getenv("RELAY_FILE")
local function out(s) io.stdout:write(s .. "\n") end

vim.cmd("edit " .. file)
local buf = vim.api.nvim_get_current_buf()
out("filetype: " .. vim.bo[buf].filetype)
out("highlighter: " .. tostring(vim.treesitter.highlighter.active[buf] ~= nil))

local parser = vim.treesitter.get_parser(buf, "relay")
local tree = parser:parse()[1]
out("root: " .. tree:root():type() .. " error=" .. tostring(tree:root():has_error()))

local get_query = (vim.treesitter.query and vim.treesitter.query.get) or vim.treesitter.get_query
local query = get_query("relay", "highlights")
-- Every capture name covering each (row, col) that nvim_plugin_e2e.py asks about.
local wanted = vim.split(os.getenv("RELAY_POSITIONS"), ";", { trimempty = true })
for _, pos in ipairs(wanted) do
  local row, col = pos:match("(%d+):(%d+)")
  row, col = tonumber(row), tonumber(col)
  local names = {}
  for id, node in query:iter_captures(tree:root(), buf, row, row + 1) do
    local sr, sc, er, ec = node:range()
    local after_start = sr < row or (sr == row and sc <= col)
    local before_end = er > row or (er == row and ec > col)
    if after_start and before_end then table.insert(names, query.captures[id]) end
  end
  out(string.format("captures %d:%d %s", row, col, table.concat(names, ",")))
end

local ok = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local clients = {}
for _, c in pairs(vim.lsp.buf_get_clients(buf)) do table.insert(clients, c.name) end
out("lsp clients: " .. table.concat(clients, ","))
out("diagnostics: " .. (ok and #vim.diagnostic.get(buf) or 0))
vim.cmd("qall!")
