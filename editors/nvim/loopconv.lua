-- loopconv's language server in Neovim (0.7 or later), without plugins.
--
-- Use: put this file in your config (e.g. ~/.config/nvim/lua/loopconv.lua) and add
--   require("loopconv").setup()
-- to init.lua; or `dofile("/path/to/loopconv.lua").setup()`. With nvim-lspconfig, the same
-- settings go in a custom server config (see the guide, docs/src/editors.md, "Editor integration").
local M = {}

-- Options: cmd (default {"loopconv", "lsp"}), filetypes (default json and yaml).
function M.setup(opts)
  opts = opts or {}
  M.cmd = opts.cmd or { "loopconv", "lsp" }
  local filetypes = opts.filetypes or { "json", "yaml" }
  vim.api.nvim_create_autocmd("FileType", {
    pattern = filetypes,
    callback = function(args) M.attach(args.buf) end,
  })
end

-- Start (once) and attach the server to a buffer; returns the client id.
function M.attach(bufnr)
  if not M.client_id or vim.lsp.get_client_by_id(M.client_id) == nil then
    M.client_id = vim.lsp.start_client({
      name = "loopconv",
      cmd = M.cmd or { "loopconv", "lsp" },
      root_dir = vim.fn.getcwd(),
    })
  end
  vim.lsp.buf_attach_client(bufnr, M.client_id)
  return M.client_id
end

return M
