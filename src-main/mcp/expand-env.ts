import { isStdioServer, type McpServerConfig } from '../../src-shared'

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

export type Expanded = { ok: true; config: McpServerConfig } | { ok: false; reason: string }

/**
 * Replaces `${VAR}` and `${VAR:-default}` in what a server runs or sends (command, args, env, cwd, url, headers) with
 * Agentry's environment — Claude Code's `.mcp.json` convention, so secrets stay out of files. A variable that is not
 * set and has no default makes this server unusable, naming the variable and where it is used.
 */
export function expandServerEnv(config: McpServerConfig, env: NodeJS.ProcessEnv): Expanded {
  const missing: string[] = []
  const expand = (text: string, where: string): string =>
    text.replace(REFERENCE, (_m, name: string, fallback: string | undefined) => {
      const value = env[name]
      // As in the shell: `${VAR:-x}` also replaces an empty value; `${VAR}` keeps an empty one.
      if (fallback !== undefined && !value) return fallback
      if (value !== undefined) return value
      missing.push(`${name} (in ${where})`)
      return ''
    })
  const map = (record: Record<string, string> | undefined, field: string) =>
    record ? Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expand(v, `${field}.${k}`)])) : undefined
  let out: McpServerConfig
  if (isStdioServer(config)) {
    out = {
      ...config,
      command: expand(config.command, 'command'),
      ...(config.args ? { args: config.args.map((a, i) => expand(a, `args[${i}]`)) } : {}),
      ...(config.env ? { env: map(config.env, 'env') } : {}),
      ...(config.cwd ? { cwd: expand(config.cwd, 'cwd') } : {}),
    }
  } else {
    out = { ...config, url: expand(config.url, 'url'), ...(config.headers ? { headers: map(config.headers, 'headers') } : {}) }
  }
  if (missing.length) {
    const names = missing.join(', ')
    return { ok: false, reason: `the environment variable${missing.length > 1 ? 's' : ''} ${names} ${missing.length > 1 ? 'are' : 'is'} not set; set ${missing.length > 1 ? 'them' : 'it'} where Agentry starts (or give a default: \${NAME:-value})` }
  }
  return { ok: true, config: out }
}
