-- End-to-end check of `loopconv lsp` on a workspace with Neovim's built-in client, run by
-- tests/suite/lsp/nvim.rs:
--   LOOPCONV_BIN=... LOOPCONV_TEAM=... LOOPCONV_OUT=... nvim --headless --clean -c "luafile e2e-workspace.lua"
-- Opens a team, jumps from a step's `loop` to the loop's file, lists the references of the
-- loop's name, renames it (buffers only, never written), completes a loop name, and writes
-- what it saw as JSON to $LOOPCONV_OUT.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)")
local loopconv = dofile(here .. "loopconv.lua")
local out = { errors = {} }

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(out) }, os.getenv("LOOPCONV_OUT"))
  vim.cmd("qall!")
end

local function request(buf, method, params)
  local res = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  for _, r in pairs(res) do
    if r.err then table.insert(out.errors, method .. ": " .. vim.inspect(r.err)) end
    if r.result then return r.result end
  end
end

local ok, err = pcall(function()
  loopconv.cmd = { os.getenv("LOOPCONV_BIN"), "lsp" }
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("LOOPCONV_TEAM")))
  local team = vim.api.nvim_get_current_buf()
  local client = loopconv.attach(team)
  out.attached = vim.wait(10000, function()
    local c = vim.lsp.get_client_by_id(client)
    return c ~= nil and c.initialized
  end, 20)

  -- Definition: from the step `"loop": "docs-fix"` to the loop's name in its own file.
  local lines = vim.api.nvim_buf_get_lines(team, 0, -1, false)
  for i, l in ipairs(lines) do
    local s = l:find('"loop": "docs%-fix"')
    if s then
      vim.api.nvim_win_set_cursor(0, { i, s + 10 })
      out.step_line = i - 1
      break
    end
  end
  local loc = request(team, "textDocument/definition", vim.lsp.util.make_position_params())
  vim.lsp.util.jump_to_location(loc[1] or loc, "utf-16")
  local loop = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(loop, client)
  out.definition = { file = vim.api.nvim_buf_get_name(loop), line = vim.api.nvim_win_get_cursor(0)[1] - 1,
    text = vim.api.nvim_get_current_line() }

  -- References of the loop's name, from the loop's file: the loop and the step.
  local params = vim.lsp.util.make_position_params()
  params.context = { includeDeclaration = true }
  out.references = {}
  for _, r in ipairs(request(loop, "textDocument/references", params) or {}) do
    table.insert(out.references, { file = vim.uri_to_fname(r.uri), line = r.range.start.line })
  end

  -- Rename, applied to the buffers (none is written).
  params = vim.lsp.util.make_position_params()
  params.newName = "docs-check"
  local edit = request(loop, "textDocument/rename", params)
  vim.lsp.util.apply_workspace_edit(edit, "utf-16")
  out.renamed_loop = vim.api.nvim_buf_get_lines(loop, 0, 1, false)[1]
  out.renamed_step = vim.api.nvim_buf_get_lines(team, out.step_line, out.step_line + 1, false)[1]

  -- Completion of a loop name in the team, after `"loop": "`: the renamed loop's new name,
  -- once Neovim has sent the edits (it waits 150 ms before sending them).
  vim.wait(600)
  vim.api.nvim_set_current_buf(team)
  local step = vim.api.nvim_buf_get_lines(team, out.step_line, out.step_line + 1, false)[1]
  vim.api.nvim_win_set_cursor(0, { out.step_line + 1, step:find('"loop": "') + 8 })
  local res = request(team, "textDocument/completion", vim.lsp.util.make_position_params())
  out.completion = {}
  for _, item in ipairs(res and (res.items or res) or {}) do table.insert(out.completion, item.label) end
end)
if not ok then table.insert(out.errors, tostring(err)) end
finish()
