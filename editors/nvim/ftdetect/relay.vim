" Relay text format (TVM): .relay and .rly files.
autocmd BufRead,BufNewFile *.relay,*.rly setfiletype relay
