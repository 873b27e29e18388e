import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ScriptedChatResponse } from '../../models/testing'
import { waitFor, type HarnessOptions } from '../../testing/harness'
import { agentOfRequest, contentText, firstUserText, hasToolResult, lastMessage, type ChatRequest, type LoopbackHarness } from '../../testing/model-requests'

/**
 * The request contract's situations (issue 22): each drives a real host whose model is a loopback server, the way a
 * person and a model would, so the suite sees every request a model receives in that situation. Replies are chosen
 * from the request itself (which agent, what came last), never from its position, so parallel children may arrive
 * in any order.
 */
export interface Situation {
  name: string
  options?: HarnessOptions
  /** the workspace is a git repository with one commit */
  git?: true
  /** `seen` lists the requests the server has received so far (a reply may wait for another request) */
  respond(r: ChatRequest, seen: () => ChatRequest[]): ScriptedChatResponse | Promise<ScriptedChatResponse>
  drive(lh: LoopbackHarness): Promise<void>
}

/** Resolves once a request the server received matches. */
async function until(seen: () => ChatRequest[], match: (r: ChatRequest) => boolean): Promise<void> {
  while (!seen().some(match)) await new Promise((r) => setTimeout(r, 10))
}

const call = (name: string, args: Record<string, unknown>): ScriptedChatResponse => ({ toolCalls: [{ name, arguments: args }] })
const calls = (...list: [string, Record<string, unknown>][]): ScriptedChatResponse => ({ toolCalls: list.map(([name, args]) => ({ name, arguments: args })) })
const task = (args: Record<string, unknown>) => call('task', args)
const agent = (r: ChatRequest) => agentOfRequest(r)
const last = (r: ChatRequest) => lastMessage(r)
const lastText = (r: ChatRequest) => contentText(last(r))
/** The notice of a background result is the last thing the model reads. */
const noticeLast = (r: ChatRequest) => last(r).role === 'user' && lastText(r).startsWith('[Automated notice')
const once = (prompt: string) => async (lh: LoopbackHarness) => void (await lh.h.run(prompt))
const FILES = { 'src/a.ts': 'export function a() {\n  return 1\n}\n', 'src/b.ts': 'export function b() {\n  return 2\n}\n', 'README.md': '# Demo\n' }

/** The skill situations' HOME: an empty folder, so no one's real ~/.claude/skills leaks in. */
const NO_HOME = { ...process.env, HOME: path.join(os.tmpdir(), 'agentry-contract-no-home') }

export const SITUATIONS: Situation[] = [
  {
    name: 'build-root',
    options: { files: FILES },
    respond: () => ({ text: 'Hello! What should I work on?' }),
    drive: once('hello'),
  },
  {
    name: 'plan-root',
    options: { files: FILES },
    respond: () => ({ text: 'A plan needs a goal: what should change?' }),
    drive: async (lh) => void (await lh.h.run('plan a refactor', { agent: 'plan' })),
  },
  {
    name: 'parallel-children',
    options: { files: FILES },
    respond: (r) => {
      const who = agent(r)
      if (who === 'explore') return hasToolResult(r) ? { text: `${firstUserText(r)}: one exported function.` } : call('read_file', { path: firstUserText(r).includes('src/a') ? 'src/a.ts' : 'src/b.ts' })
      if (who === 'general') return { text: 'README.md has a title only; nothing else to change.' }
      if (hasToolResult(r)) return { text: 'Both files export one function each; the README needs nothing.' }
      return calls(
        ['task', { subagent_type: 'explore', description: 'Survey src/a', prompt: 'Read src/a.ts and say what it exports.' }],
        ['task', { subagent_type: 'explore', description: 'Survey src/b', prompt: 'Read src/b.ts and say what it exports.' }],
        ['task', { subagent_type: 'general', description: 'Check the README', prompt: 'Check README.md; change nothing; report what it contains.' }],
      )
    },
    drive: once('survey the repository'),
  },
  {
    name: 'background-while-running',
    respond: async (r, seen) => {
      const launched = (q: ChatRequest) => agent(q) === 'build' && last(q).role === 'tool' && lastText(q).startsWith('Started in the background')
      // The child answers while its parent's next step is in flight; that step (a tool call) ends after the answer, and
      // the step after it reads the result.
      if (agent(r) === 'explore') {
        await until(seen, launched)
        return { text: 'The config is in src/config.ts.' }
      }
      if (last(r).role === 'user' && !hasToolResult(r)) return task({ subagent_type: 'explore', description: 'Find the config', prompt: 'Find the config file.', background: true })
      if (launched(r)) {
        await until(seen, (q) => agent(q) === 'explore')
        return { ...call('list_dir', {}), delayMs: 300 }
      }
      return { text: 'The config is in src/config.ts.' }
    },
    drive: once('where is the config?'),
  },
  {
    name: 'background-while-idle',
    respond: async (r, seen) => {
      // The child answers only once its parent has sent its last request of the turn: the result comes after the turn.
      if (agent(r) === 'explore') {
        await until(seen, (q) => agent(q) === 'build' && last(q).role === 'tool')
        return { text: 'Three test files.', delayMs: 200 }
      }
      if (noticeLast(r)) return { text: 'The survey is back: three test files.' }
      if (last(r).role === 'user') return task({ subagent_type: 'explore', description: 'Survey the tests', prompt: 'Count the test files.', background: true })
      return { text: 'Started a survey in the background; I will report when it is back.' }
    },
    drive: once('survey the tests in the background'),
  },
  {
    name: 'fork',
    options: { files: FILES },
    respond: (r) => {
      if (JSON.stringify(r.messages).includes('<fork_directive>')) return { text: 'src/b.ts exports b(), which returns 2.' }
      if (noticeLast(r)) return { text: 'The fork confirmed it: b() returns 2.' }
      if (last(r).role === 'user') return call('read_file', { path: 'src/a.ts' })
      if (lastText(r).startsWith('Started in the background')) return { text: 'A fork is checking src/b.ts.' }
      return task({ subagent_type: 'fork', description: 'Check src/b', prompt: 'Now read src/b.ts the same way and report what it returns.' })
    },
    drive: once('compare src/a.ts and src/b.ts'),
  },
  {
    name: 'resume',
    respond: (r) => {
      if (agent(r) === 'explore') return { text: lastText(r) === 'Look again, deeper.' ? 'Deeper: one more file.' : 'First look: three files.' }
      if (hasToolResult(r) && last(r).role === 'tool') return { text: 'Noted.' }
      if (lastText(r) === 'look again') {
        const id = /task_id="(ses_\w+)"/.exec(r.messages.map(contentText).join('\n'))![1]
        return task({ task_id: id, description: 'Look again', prompt: 'Look again, deeper.' })
      }
      return task({ subagent_type: 'explore', description: 'Look around', prompt: 'Look around the workspace.' })
    },
    drive: async (lh) => {
      const first = await lh.h.run('look around')
      await lh.h.run('look again', { sessionId: first.sessionId })
    },
  },
  {
    name: 'step-cap',
    respond: (r) => {
      if (agent(r) === 'explore') return hasToolResult(r) ? { text: 'Partial: two folders so far.' } : call('list_dir', {})
      return hasToolResult(r) ? { text: 'It stopped early; two folders so far.' } : task({ subagent_type: 'explore', description: 'Map the folders', prompt: 'Map every folder.', max_turns: 1 })
    },
    drive: once('map the folders'),
  },
  {
    // A child stopped at its budget: the task_error reason="budget" its parent reads (issue 25).
    name: 'budget',
    respond: (r) => {
      if (agent(r) === 'explore') return hasToolResult(r) ? { text: 'never reached' } : call('list_dir', {})
      return hasToolResult(r) ? { text: 'It stopped at its budget.' } : task({ subagent_type: 'explore', description: 'Map the folders', prompt: 'Map every folder.', budget: { tokens: 1 } })
    },
    drive: once('map the folders cheaply'),
  },
  {
    // Files in a prompt (issue 28): an attached image (this chat-completions model does not take images, so it is
    // named), an attached text file, and a mentioned workspace file, all before the person's text.
    name: 'files-in-prompt',
    options: { files: FILES },
    respond: () => ({ text: 'a() returns 1.' }),
    drive: async (lh) =>
      void (await lh.h.run('what does @src/a.ts return? The screenshot and notes are attached.', {
        attachments: [
          { name: 'shot.png', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' },
          { name: 'notes.txt', mediaType: 'text/plain', data: Buffer.from('a() used to return 2\n').toString('base64') },
        ],
      })),
  },
  {
    // The person steers a running child (issue 26): its next request carries their message, marked as sent meanwhile.
    name: 'steer',
    respond: (r) => {
      if (agent(r) === 'general') {
        if (lastText(r).includes('only the src folder')) return { text: 'Listing only src, as asked.' }
        return hasToolResult(r) ? { text: 'never reached' } : { ...call('list_dir', {}), delayMs: 300 }
      }
      return hasToolResult(r) ? { text: 'The helper listed src.' } : task({ subagent_type: 'general', description: 'List the files', prompt: 'List every file.' })
    },
    drive: async (lh) => {
      const { sessionId } = await lh.h.run('list the files', { wait: false })
      await waitFor(() => lh.requests().some((r) => agent(r) === 'general'))
      const child = await waitFor(() => lh.h.host.runs.list('task')[0])
      await lh.h.host.api.calls['sessions.steer']({ sessionId: child.sessionId, text: 'Look at only the src folder, please.' })
      await lh.h.host.runner.idle()
      await waitFor(() => !lh.h.host.runner.isRunning(sessionId))
    },
  },
  {
    name: 'timeout',
    respond: (r) => {
      if (agent(r) === 'general') return hasToolResult(r) ? { text: 'never', delayMs: 5000 } : { text: 'Writing notes.md now.', ...call('write_file', { path: 'notes.md', content: 'notes' }) }
      return hasToolResult(r) ? { text: 'It ran out of time after writing notes.md.' } : task({ subagent_type: 'general', description: 'Write notes', prompt: 'Write notes.md.', timeout_seconds: 1 })
    },
    drive: once('write the notes'),
  },
  {
    name: 'abort',
    respond: (r) => {
      if (agent(r) === 'general') return { text: 'never', delayMs: 10_000 }
      if (lastText(r) === 'what happened?') return { text: 'You stopped the run while the subagent was working.' }
      return task({ subagent_type: 'general', description: 'Long job', prompt: 'Do the long job.' })
    },
    drive: async (lh) => {
      const { sessionId } = await lh.h.run('do the long job', { wait: false })
      await waitFor(() => lh.requests().some((r) => agent(r) === 'general'))
      await lh.h.host.api.calls['messages.abort']({ sessionId })
      await lh.h.host.runner.idle()
      await lh.h.run('what happened?', { sessionId })
    },
  },
  {
    name: 'plan-exit-headless',
    options: { headlessRun: { yes: false, allow: [] } },
    respond: (r) => (hasToolResult(r) ? { text: 'The plan:\n1. Add a test.\n2. Fix the bug.' } : call('plan_exit', { plan: '1. Add a test.\n2. Fix the bug.' })),
    drive: async (lh) => void (await lh.h.run('plan the fix', { agent: 'plan' })),
  },
  {
    name: 'plan-exit-approved',
    respond: (r) => (agent(r) === 'plan' ? call('plan_exit', { plan: '1. Add a test.\n2. Fix the bug.' }) : { text: 'Adding the test first.' }),
    drive: async (lh) => {
      const { sessionId } = await lh.h.run('plan the fix', { agent: 'plan', wait: false })
      const approval = await waitFor(() => lh.h.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
      await lh.h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
      await lh.h.host.runner.idle()
      await lh.h.run('go ahead', { sessionId })
    },
  },
  {
    name: 'worktree',
    git: true,
    options: { files: FILES },
    respond: (r) => {
      if (agent(r) === 'general') return hasToolResult(r) ? { text: 'Added src/c.ts.' } : call('write_file', { path: 'src/c.ts', content: 'export const c = 3\n' })
      return hasToolResult(r) ? { text: 'The change is on its branch.' } : task({ subagent_type: 'general', description: 'Add src/c', prompt: 'Add src/c.ts exporting c = 3.', isolation: 'worktree' })
    },
    drive: once('add c'),
  },
  {
    name: 'compaction',
    // A small context window: the fifth prompt finds the conversation near it and compacts first.
    options: { config: { providers: { mock: { models: { m: { contextWindow: 2000 } } } } } },
    respond: (r) => (agent(r) === 'compaction' ? { text: 'The user is filling the conversation with long notes; nothing is decided yet.' } : { text: 'Noted.' }),
    drive: async (lh) => {
      const first = await lh.h.run(`note 1: ${'lorem ipsum '.repeat(150)}`)
      for (const n of [2, 3, 4]) await lh.h.run(`note ${n}: ${'lorem ipsum '.repeat(150)}`, { sessionId: first.sessionId })
      await lh.h.run('what did I say?', { sessionId: first.sessionId })
    },
  },
  {
    name: 'summary',
    respond: () => ({ text: 'Done: the README now has a title.' }),
    drive: async (lh) => {
      const run = await lh.h.run('give the README a title')
      await lh.h.host.api.calls['sessions.summarize']({ sessionId: run.sessionId })
    },
  },
  {
    // Skills (issue 27): the skill tool lists the person's skill; the model loads it and reads a file beside it, in
    // the data dir's skills folder (outside the workspace). HOME is an empty folder: no one's real skills leak in.
    name: 'skill-load',
    options: { files: FILES, env: NO_HOME },
    respond: (r) => {
      const results = r.messages.filter((m) => m.role === 'tool').length
      if (agent(r) !== 'build') return { text: 'ok' }
      if (results === 0) return call('skill', { name: 'changelog' })
      if (results === 1) return call('read_file', { path: lastText(r).match(/^Folder: (.*)$/m)![1] + '/template.md' })
      return { text: 'The changelog follows the template.' }
    },
    drive: async (lh) => {
      writeChangelogSkill(lh.h.dataDir)
      await lh.h.run('write the changelog')
    },
  },
  {
    // A subagent file's `skills:` (issue 27): the skill's instructions are a section of its system prompt from the
    // start; a name that is not there is said in one line. The parent preloads nothing.
    name: 'skill-preload',
    options: { files: FILES, env: NO_HOME, agents: { releaser: { mode: 'subagent', description: 'Writes release notes', skills: ['changelog', 'semver'] } } },
    respond: (r) => {
      const results = r.messages.filter((m) => m.role === 'tool').length
      if (agent(r) !== 'build') return { text: 'Release notes written.' }
      if (results === 0) return call('task', { subagent_type: 'releaser', description: 'Release notes', prompt: 'Write the release notes for 1.2.0.' })
      return { text: 'The releaser wrote them.' }
    },
    drive: async (lh) => {
      writeChangelogSkill(lh.h.dataDir)
      await lh.h.run('write the release notes')
    },
  },
]

/** The person's `changelog` skill in the data dir (both skill situations), with a file beside it. */
function writeChangelogSkill(dataDir: string): void {
  const dir = path.join(dataDir, 'skills', 'changelog')
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: changelog\ndescription: Write a changelog entry. Use when the user asks for release notes or a changelog.\n---\n# Changelog\nFill template.md, one line per change.\n')
  fs.writeFileSync(path.join(dir, 'template.md'), '## [version] - date\n### Added\n')
}

/** A git repository with one commit in the workspace (worktree situations). */
export function makeRepository(workdir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=contract@test', '-c', 'user.name=contract', ...args], { cwd: workdir, stdio: 'pipe' })
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', 'start')
}
