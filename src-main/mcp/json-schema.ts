import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv'

type AjvInstance = { compile(schema: AnySchemaObject): ValidateFunction }
type Drafts = { draft7: AjvInstance; draft2019: AjvInstance; draft2020: AjvInstance }

let drafts: Promise<Drafts> | undefined

/** ajv loads on first use (a run that calls no MCP tool never pays for it); one instance per JSON Schema draft. */
function loadDrafts(): Promise<Drafts> {
  drafts ??= (async () => {
    // `default`: ajv is CommonJS; Node and the bundler both give its module.exports (the class) as the default export.
    const [{ default: Ajv }, { default: Ajv2019 }, { default: Ajv2020 }] = await Promise.all([import('ajv'), import('ajv/dist/2019.js'), import('ajv/dist/2020.js')])
    // strict: false — servers use keywords of their own and formats ajv does not know; those are annotations, not errors.
    const options = { strict: false, allErrors: true, validateFormats: false, logger: false } as const
    return { draft7: new Ajv(options), draft2019: new Ajv2019(options), draft2020: new Ajv2020(options) }
  })()
  return drafts
}

export type SchemaCheck = { ok: true; validate(input: unknown): string[] } | { ok: false; reason: string }

const compiled = new Map<string, Promise<SchemaCheck>>()

/**
 * Compiles a tool's input schema as the server declared it (its `$schema` picks the draft: 2020-12, 2019-09, else
 * draft-07). A schema that does not compile is not JSON Schema: the tool is skipped and the reason reported.
 * `validate` returns one message per problem (`path: reason`), none when the input fits.
 */
export function compileSchema(schema: unknown): Promise<SchemaCheck> {
  const key = JSON.stringify(schema)
  let check = compiled.get(key)
  if (!check) {
    check = compile(schema)
    if (compiled.size > 5_000) compiled.clear()
    compiled.set(key, check)
  }
  return check
}

async function compile(schema: unknown): Promise<SchemaCheck> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return { ok: false, reason: 'the input schema is not a JSON object' }
  const object = schema as AnySchemaObject
  const { draft7, draft2019, draft2020 } = await loadDrafts()
  const dialect = typeof object.$schema === 'string' ? object.$schema : ''
  const ajv = dialect.includes('2020-12') ? draft2020 : dialect.includes('2019-09') ? draft2019 : draft7
  // Older drafts (04, 06) read like 07 for what tools use; ajv would refuse the unknown meta-schema itself.
  const { $schema: _dialect, ...rest } = object
  const target = ajv === draft7 ? rest : object
  let validate: ValidateFunction
  try {
    validate = ajv.compile(target)
  } catch (err) {
    return { ok: false, reason: `its input schema is not valid JSON Schema (${err instanceof Error ? err.message : String(err)})` }
  }
  return {
    ok: true,
    validate(input) {
      if (validate(input)) return []
      return (validate.errors ?? []).map(describeError)
    },
  }
}

function describeError(e: ErrorObject): string {
  const at = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  const params = e.params as Record<string, unknown>
  if (e.keyword === 'required') return `${[...at, String(params.missingProperty)].join('.')}: required`
  if (e.keyword === 'additionalProperties') return `${[...at, String(params.additionalProperty)].join('.')}: not a known argument`
  const where = at.length ? at.join('.') : 'arguments'
  const allowed = e.keyword === 'enum' && Array.isArray(params.allowedValues) ? ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})` : ''
  return `${where}: ${e.message ?? e.keyword}${allowed}`
}
