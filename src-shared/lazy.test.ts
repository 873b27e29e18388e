import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { lazy } from './lazy'

describe('a lazily built schema', () => {
  it('is built the first time it is read, once, and behaves as the schema it builds', () => {
    let builds = 0
    const A = lazy(() => {
      builds++
      return z.object({ type: z.literal('a'), name: z.string().min(1) })
    })
    const B = lazy(() => z.object({ type: z.literal('b'), n: z.number().int() }))
    const Both = lazy(() => z.discriminatedUnion('type', [A, B]))
    const Wider = lazy(() => A.extend({ extra: z.boolean().optional() }))
    expect(builds).toBe(0)

    expect(Both.parse({ type: 'a', name: 'x' })).toEqual({ type: 'a', name: 'x' })
    expect(Both.safeParse({ type: 'b', n: 1.5 }).success).toBe(false)
    expect(Wider.parse({ type: 'a', name: 'y', extra: true })).toEqual({ type: 'a', name: 'y', extra: true })
    expect(builds).toBe(1)
    expect(A instanceof z.ZodObject).toBe(true)
    expect(Object.keys(A.shape)).toEqual(['type', 'name'])
    expect(z.array(A).parse([{ type: 'a', name: 'z' }])).toHaveLength(1)
    expect(z.toJSONSchema(Wider)).toMatchObject({ type: 'object', required: ['type', 'name'] })
    expectTypeOf<z.infer<typeof Wider>>().toEqualTypeOf<{ type: 'a'; name: string; extra?: boolean }>()
  })

  it('reports what a failed parse names, as the plain schema would', () => {
    const Plain = z.object({ port: z.number().int().min(1) }).strict()
    const Lazy = lazy(() => z.object({ port: z.number().int().min(1) }).strict())
    for (const input of [{ port: 0 }, { port: 'x' }, { port: 2, other: 1 }]) {
      expect(Lazy.safeParse(input).error?.issues).toEqual(Plain.safeParse(input).error?.issues)
    }
  })
})
