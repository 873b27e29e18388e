import { bashTool } from './bash'
import { editFileTool } from './edit-file'
import { globTool } from './glob'
import { grepTool } from './grep'
import { listDirTool } from './list-dir'
import { questionTool } from './question'
import { readFileTool } from './read-file'
import type { ToolDef } from './tool'
import { todoTool } from './todo'
import { webFetchTool } from './web-fetch'
import { writeFileTool } from './write-file'

/** Every built-in tool except plan_exit (plan agent only) and task (defined by the subagents module). */
export const BUILTIN_TOOLS: ToolDef[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  bashTool,
  webFetchTool,
  todoTool,
  questionTool,
]
