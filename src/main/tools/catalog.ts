import type { InteractionMode } from '../../shared/settings'
import { CLI_TOOL_NAME } from './call/invoke'
import { methodInfo } from './call/methodInfo'
import { apiToolName, cliMethodName } from './naming'
import type { JsonSchema } from './schema/jsonSchema'
import { modelSchema } from './schema/modelSchema'
import type { Toolset } from './types'

/** An OpenAI-style function tool. */
export interface FunctionTool {
  type: 'function'
  function: { name: string; description: string; parameters: JsonSchema }
}

export interface ToolCatalog {
  mode: InteractionMode
  /** API mode: one function per method; CLI mode: the single `cli` tool. */
  tools: FunctionTool[]
}

const cache = new WeakMap<readonly Toolset[], Partial<Record<InteractionMode, ToolCatalog>>>()

/**
 * The function tools of one toolset's methods, conventions stated once (see `modelSchema`): the
 * toolset's own description rides on its first method, so the tools explain themselves wherever
 * they are disclosed.
 */
function toolsetFunctions(toolset: Toolset): FunctionTool[] {
  const seen = new Set<string>()
  const notes = toolset.description !== toolset.summary ? toolset.description : ''
  return Object.entries(toolset.methods).map(([key, method], index) => {
    const { input } = methodInfo(method)
    const parameters = modelSchema({ ...input, type: 'object', properties: input.properties ?? {} }, seen)
    const description =
      index === 0 && notes ? `${method.description}\n${toolset.name} toolset: ${notes}` : method.description
    return {
      type: 'function' as const,
      function: { name: apiToolName(toolset.name, key), description, parameters },
    }
  })
}

const functionCache = new WeakMap<Toolset, FunctionTool[]>()

/** API mode: one function per method. Results describe themselves, so return shapes are left to `--help`. */
export function buildApiTools(toolsets: readonly Toolset[]): FunctionTool[] {
  return toolsets.flatMap((toolset) => {
    let tools = functionCache.get(toolset)
    if (!tools) {
      tools = toolsetFunctions(toolset)
      functionCache.set(toolset, tools)
    }
    return tools
  })
}

/** One line per toolset, `- name: summary`: what the system prompt lists in both modes. */
export function toolsetIndex(toolsets: readonly Toolset[]): string {
  return toolsets.map((t) => `- ${t.name}: ${t.summary}`).join('\n') || '- (none)'
}

/** CLI mode's single tool; the toolsets themselves are listed in the system prompt. */
export function buildCliTool(): FunctionTool {
  return {
    type: 'function',
    function: {
      name: CLI_TOOL_NAME,
      description:
        'Runs one Bureau command: <toolset> <method> [arguments] [--option value]. "help", "<toolset> --help" and "<toolset> <method> --help" print usage.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The command line, e.g. `files list /`.' },
        },
        required: ['command'],
      },
    },
  }
}

/**
 * What a CLI-mode command may start with: `help`, `--help`, `<toolset> --help`, `<toolset> -h` and
 * `<toolset> <method>` for every method, as the terminal parser reads them.
 */
export function cliCommandPrefixes(toolsets: readonly Toolset[]): string[] {
  return [
    'help',
    '--help',
    ...toolsets.flatMap((toolset) => [
      `${toolset.name} --help`,
      `${toolset.name} -h`,
      ...Object.keys(toolset.methods).map((key) => `${toolset.name} ${cliMethodName(key)}`),
    ]),
  ]
}

/**
 * The catalog for a set of toolsets, cached per registry snapshot (the array `registry.list()`
 * returns), so it is rebuilt only when the set of toolsets changes.
 */
export function getCatalog(toolsets: readonly Toolset[], mode: InteractionMode): ToolCatalog {
  let entry = cache.get(toolsets)
  if (!entry) {
    entry = {}
    cache.set(toolsets, entry)
  }
  const cached = entry[mode]
  if (cached) return cached
  const catalog: ToolCatalog = {
    mode,
    tools: mode === 'api' ? buildApiTools(toolsets) : [buildCliTool()],
  }
  entry[mode] = catalog
  return catalog
}
