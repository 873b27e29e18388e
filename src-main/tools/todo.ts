import { z } from 'zod'
import { defineTool, Todo, type TodoStatus } from './tool'

export const TodoParameters = z.object({
  todos: z.array(Todo).describe('The complete, updated task list. It replaces the previous list.'),
})

const description = `Keep a visible task list for multi-step work; the user sees it update live.
- Send the whole list every time; it replaces the previous one.
- Mark an item in_progress when you start it (one at a time) and completed as soon as it is done.
- Skip it for trivial one-step requests.`

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' }

export const todoTool = defineTool({
  name: 'todo',
  description,
  parameters: TodoParameters,
  // Only updates this session's own list; nothing outside the session is touched.
  permission: () => null,
  async execute(input, ctx) {
    ctx.setTodos(input.todos)
    if (input.todos.length === 0) return { output: 'Todo list cleared.', metadata: { todos: [] } }
    const done = input.todos.filter((t) => t.status === 'completed').length
    const lines = input.todos.map((t) => `${MARK[t.status]} ${t.content}`)
    return { output: [`Todo list (${done}/${input.todos.length} completed):`, ...lines].join('\n'), metadata: { todos: input.todos } }
  },
})
