/** A workspace agent manifest file as { path: content }, for `startScenario({ files })`. */
export const agentFile = (name: string, frontmatter: string, body = 'You are a test agent.'): Record<string, string> => ({
  [`.agents/agents/${name}.md`]: `---\n${frontmatter}\n---\n${body}\n`,
})
