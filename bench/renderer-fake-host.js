// A synthetic host for the renderer benchmark, injected as `window.agentry` (the preload's shape) before the app
// loads. It answers bridge calls from generated data so the benchmark measures the renderer alone — no SQLite,
// no sockets — and lets the benchmark push content deltas at a fixed rate. Config: window.__FAKE_HOST_CONFIG.
;(() => {
  const cfg = Object.assign({ sessions: 10000, messages: 5000, root: '/bench/workspace' }, window.__FAKE_HOST_CONFIG || {})
  const now = Date.now()
  const usage = { prompt: 0, completion: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, total: 0 }
  const words = ['refactor', 'auth', 'parser', 'tests', 'docs', 'build', 'release', 'cache', 'ui', 'api', 'db', 'bench']
  const session = (i, extra) => ({
    id: `ses_${String(i).padStart(6, '0')}`,
    agent: i % 7 === 0 ? 'plan' : 'build',
    title: `Session ${i} ${words[i % words.length]} ${words[(i * 7) % words.length]}`,
    workspaceRoot: cfg.root, model: null, parentId: null, parentMessageId: null, status: 'idle', metadata: {}, usage,
    costUsd: 0, createdAt: now - i * 60000, updatedAt: now - i * 60000, archivedAt: null,
    pendingApprovals: 0, queued: 0, childCount: 0, ...extra,
  })
  const sessions = []
  for (let i = 0; i < cfg.sessions; i++) sessions.push(session(i))
  const big = sessions[0]
  const text = (i) =>
    `Step ${i}: I looked at \`src/module-${i}.ts\` and found **${i % 5} issues**.\n\n- first point about the code\n- second point\n\n` +
    (i % 10 === 0 ? '```ts\nexport function f(x: number): number {\n  return x * 2 // double\n}\n```\n' : 'Nothing else to report here.')
  const messages = []
  for (let i = 0; i < cfg.messages; i++) {
    const id = `msg_${String(i).padStart(8, '0')}`
    const role = i % 2 === 0 ? 'user' : 'assistant'
    const parts = [{ id: `prt_${i}_0`, messageId: id, sessionId: big.id, index: 0, type: 'text', data: { text: role === 'user' ? `Please check module ${i}` : text(i) }, toolCallId: null, toolState: null }]
    if (role === 'assistant' && i % 6 === 1) {
      parts.push({ id: `prt_${i}_1`, messageId: id, sessionId: big.id, index: 1, type: 'tool-read_file', data: { input: { path: `src/module-${i}.ts` }, output: 'file contents', durationMs: 12 }, toolCallId: `c${i}`, toolState: 'output-available' })
    }
    messages.push({ id, sessionId: big.id, role, metadata: {}, createdAt: now - (cfg.messages - i) * 1000, updatedAt: now, parts })
  }
  const agents = [
    { name: 'build', description: 'Full tools', mode: 'primary', color: '#4f6bed' },
    { name: 'plan', description: 'Read-only planning', mode: 'primary' },
    { name: 'explore', description: 'Searches the code', mode: 'subagent' },
  ].map((a) => ({ permission: {}, maxSteps: 10, model: 'inherit', inspectable: false, caller: 'user', background: false, hidden: false, prompt: '', source: { kind: 'builtin' }, warnings: [], ...a }))
  const ok = (data) => Promise.resolve({ ok: true, data })
  let seq = 0
  const listeners = []
  const subs = new Map()
  const emit = (event) => {
    seq++
    for (const [id, input] of subs) if (input.sessionId === big.id) for (const l of listeners) l(id, { kind: 'event', event: { seq, stream: big.id, event } })
  }
  const settings = {
    dataDir: '/bench/data', configFile: '/bench/data/config.yaml', permissionsFiles: [], permissionErrors: [], configIssues: [],
    defaultModel: 'script/x', smallModel: null, sandbox: { enabled: true, writable: [], state: { mode: 'bwrap', network: false } }, subagents: { maxDepth: 5, maxConcurrent: 4, timeoutSeconds: 300, archiveAfterMinutes: 60 }, providers: [],
  }
  // Calls the benchmark does not model (model details, search, MCP, …) answer "not found", as a host without them would.
  const missing = (name) => () => Promise.resolve({ ok: false, error: { code: 'not_found', message: `the bench's fake host has no ${name}` } })
  const api = {
    workspacesList: () => ok({ recent: [{ root: cfg.root, lastOpenedAt: now }], defaultRoot: cfg.root }),
    workspacesOpen: (i) => ok({ root: i.root }),
    agentsList: () => ok({ agents, errors: [], folders: [] }),
    sessionsList: () => ok({ sessions }),
    sessionsGet: (i) => {
      const s = sessions.find((x) => x.id === i.sessionId) || big
      return ok({ session: s, messages: s === big ? messages : [], children: [], queue: [], approvals: [], ancestors: [], lastSeq: seq })
    },
    sessionsCreate: () => ok({ session: big }),
    approvalsList: () => ok({ approvals: [] }),
    tasksList: () => ok({ tasks: [] }),
    settingsGet: () => ok(settings),
    rulesList: () => ok({ rules: [] }),
    queueList: () => ok({ entries: [] }),
    subscribe: (id, input) => {
      subs.set(id, input)
      queueMicrotask(() => listeners.forEach((l) => l(id, { kind: 'snapshot', stream: input.sessionId, runs: [], approvals: [], lastSeq: seq })))
      return ok(null)
    },
    unsubscribe: (id) => {
      subs.delete(id)
      return ok(null)
    },
    onEvent: (cb) => {
      listeners.push(cb)
      return () => {}
    },
    onAppCommand: () => () => {},
  }
  window.agentry = new Proxy(api, { get: (t, k) => (k in t ? t[k] : typeof k === 'string' ? missing(k) : undefined) })
  // What the benchmark streams: the shapes a real answer has (prose with inline code, a table, a code block,
  // nested lists), repeated, cut into word-sized tokens the way providers send them.
  const section = (k) =>
    [
      `Section ${k}: the parser reads \`src/parse-${k}.ts\` and **checks** each token before it builds the tree.`,
      '',
      '| file | lines | status |',
      '|---|---:|---|',
      `| src/parse-${k}.ts | ${100 + k} | ok |`,
      `| src/lex-${k}.ts | ${40 + k} | needs work |`,
      `| src/emit-${k}.ts | ${60 + k} | ok |`,
      '',
      '```ts',
      `export function parse${k}(input: string): Node[] {`,
      '  const re = /"[^"]*"/g // quoted strings',
      '  return input.split(/\\s+/).map((word) => ({ word, quoted: re.test(word) }))',
      '}',
      '```',
      '',
      '- first point about the code',
      '  - a nested detail',
      '- second point',
      '',
    ].join('\n')
  let doc = ''
  for (let k = 1; doc.length < 40_000; k++) doc += section(k) + '\n'
  // 'plain' streams words only (what earlier rounds measured), for comparison.
  const TOKENS = {
    rich: doc.match(/\S+\s*|\s+/g) || [],
    plain: Array.from({ length: 1200 }, (_, n) => (n % 40 === 39 ? '\n\n' : n % 97 === 50 ? '`code` ' : `word${n % 13} `)),
  }

  // The benchmark drives streaming through this.
  window.__fakeHost = {
    bigSessionId: big.id,
    startStreaming(tokensPerSecond, seconds, kind = 'rich') {
      const tokens = TOKENS[kind]
      const messageId = `msg_stream_${kind}`
      const partId = `prt_stream_${kind}`
      emit({ type: 'message_created', sessionId: big.id, at: Date.now(), message: { id: messageId, sessionId: big.id, role: 'assistant', metadata: {}, createdAt: Date.now(), updatedAt: Date.now() } })
      let n = 0
      const total = tokensPerSecond * seconds
      return new Promise((resolve) => {
        const t0 = performance.now()
        const t = setInterval(() => {
          // setInterval is clamped to ~4 ms; send as many tokens as the elapsed time calls for.
          const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * tokensPerSecond))
          for (; n < due; n++) {
            emit({ type: 'content_delta', sessionId: big.id, at: Date.now(), messageId, partId, partType: 'text', delta: tokens[n % tokens.length] })
          }
          if (n >= total) {
            clearInterval(t)
            resolve(n)
          }
        }, 5)
      })
    },
  }
})()
