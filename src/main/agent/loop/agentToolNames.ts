import { OPEN_TOOLSET_TOOL } from '../disclosure/openToolsetTool'
import { DONE_TOOL, LAUNCH_SUBAGENT_TOOL, PROVIDE_SUBAGENT_INPUT_TOOL } from './agentTools'

export type AgentToolName =
  | typeof DONE_TOOL
  | typeof LAUNCH_SUBAGENT_TOOL
  | typeof PROVIDE_SUBAGENT_INPUT_TOOL
  | typeof OPEN_TOOLSET_TOOL

const byKey = new Map<string, AgentToolName>([
  ['done', DONE_TOOL],
  ['finish', DONE_TOOL],
  ['launchsubagent', LAUNCH_SUBAGENT_TOOL],
  ['providesubagentinput', PROVIDE_SUBAGENT_INPUT_TOOL],
  ['opentoolset', OPEN_TOOLSET_TOOL],
  ['opentoolsets', OPEN_TOOLSET_TOOL],
])

/** `done`, `Done`, `functions.done`, `launchSubagent`, `launch-subagent`... -> the agent tool, if it is one. */
export function agentToolName(name: string): AgentToolName | undefined {
  const key = name
    .trim()
    .replace(/^functions?[.:]/i, '')
    .replace(/[-_\s.]+/g, '')
    .toLowerCase()
  return byKey.get(key)
}
