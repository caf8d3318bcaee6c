-- End-to-end check of `loopconv lsp` with Neovim's built-in client, run by tests/suite/lsp/nvim.rs:
--   LOOPCONV_BIN=... LOOPCONV_FILE=... LOOPCONV_OUT=... nvim --headless --clean -c "luafile e2e.lua"
-- Opens a broken loop, waits for loopconv's diagnostics, jumps to a definition, asks for a
-- completion, and writes what it saw as JSON to $LOOPCONV_OUT.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)")
local loopconv = dofile(here .. "loopconv.lua")
local out = { diagnostics = {}, errors = {} }

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(out) }, os.getenv("LOOPCONV_OUT"))
  vim.cmd("qall!")
end

local ok, err = pcall(function()
  loopconv.cmd = { os.getenv("LOOPCONV_BIN"), "lsp" }
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("LOOPCONV_FILE")))
  local buf = vim.api.nvim_get_current_buf()
  local client = loopconv.attach(buf)
  out.attached = vim.wait(10000, function()
    local c = vim.lsp.get_client_by_id(client)
    return c ~= nil and c.initialized
  end, 20)

  -- Diagnostics, published on open.
  vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { code = d.code, lnum = d.lnum, col = d.col, message = d.message })
  end

  -- Go to definition from the first `"to": "<phase>"` naming a phase.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i, l in ipairs(lines) do
    local s = l:find('"to": "[a-z]')
    if s then
      vim.api.nvim_win_set_cursor(0, { i, s + 6 })
      out.from_line = i - 1
      break
    end
  end
  local params = vim.lsp.util.make_position_params()
  local res = vim.lsp.buf_request_sync(buf, "textDocument/definition", params, 10000) or {}
  for _, r in pairs(res) do
    if r.result then
      local loc = r.result[1] or r.result
      vim.lsp.util.jump_to_location(loc, "utf-16")
    end
  end
  local cur = vim.api.nvim_win_get_cursor(0)
  out.definition = { line = cur[1] - 1, col = cur[2], text = vim.api.nvim_get_current_line() }

  -- Completion inside the first `"to": "` value.
  vim.api.nvim_win_set_cursor(0, { out.from_line + 1, lines[out.from_line + 1]:find('"to": "') + 6 })
  params = vim.lsp.util.make_position_params()
  res = vim.lsp.buf_request_sync(buf, "textDocument/completion", params, 10000) or {}
  out.completion = {}
  for _, r in pairs(res) do
    local items = r.result and (r.result.items or r.result) or {}
    for _, item in ipairs(items) do table.insert(out.completion, item.label) end
  end
end)
if not ok then table.insert(out.errors, tostring(err)) end
finish()
