export { loadSkills, skillFolders, within, SKILL_FILE, type LoadedSkills, type Skill, type SkillFolder } from './load-skills'
export { parseSkill, type ParsedSkill, type SkillParse } from './parse-skill'
export { filesBeside, MAX_LISTED_FILES, skillBody } from './skill-files'
export { SKILLS_LOADER_VERSION } from './skill-cache'
