import { describe, expect, it } from 'vitest'
import { BUILTIN_TOOLS } from './builtin-tools'
import { planExitTool } from './plan-exit'
import { toolJsonSchema } from './run-tool'

const ALL = [...BUILTIN_TOOLS, planExitTool]

describe('tool catalog', () => {
  it('has exactly the built-in tools, with unique names', () => {
    expect(BUILTIN_TOOLS.map((t) => t.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'bash', 'web_fetch', 'todo', 'question'])
  })

  it('gives every tool and every parameter a description', () => {
    for (const t of ALL) {
      expect(t.description.length, t.name).toBeGreaterThan(40)
      const props = (toolJsonSchema(t).properties ?? {}) as Record<string, { description?: string }>
      for (const [key, prop] of Object.entries(props)) expect(prop.description, `${t.name}.${key}`).toBeTruthy()
    }
  })

  // This is what the model sees; a change here changes model behaviour and deserves review.
  for (const t of ALL) {
    it(`${t.name} JSON schema`, () => {
      expect({ description: t.description, parameters: toolJsonSchema(t) }).toMatchSnapshot()
    })
  }
})
