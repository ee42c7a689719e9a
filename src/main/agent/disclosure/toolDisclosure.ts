import { jsonObjectOf } from '../../../shared/json'
import type { LlmSession, ToolSpec } from '../../llm'
import type { Logger } from '../../platform'
import { buildApiTools, didYouMean, resolveMethod, type ToolRegistry, type Toolset } from '../../tools'
import { OpenToolsetArgs } from './openToolsetTool'

export interface DisclosureOptions {
  llm: LlmSession
  /** The agent's own tools (done, open_toolset, sub-agents): always first, never change. */
  fixed: readonly ToolSpec[]
  registry: ToolRegistry
  initial: readonly string[]
  logger?: Logger
}

export type DisclosureReply = { ok: true; text: string } | { ok: false; error: string }

/**
 * Which toolsets' methods the model sees in API mode. The tools are the fixed agent tools followed
 * by the methods of the open toolsets in the order they were opened, so the request bytes depend on
 * the conversation alone; each opening mid-run is one logged, counted change of the tools (a break
 * of the provider's prompt cache), and nothing else ever changes them.
 */
export class ToolDisclosure {
  private readonly opened: string[] = []
  /** Toolsets opened after the run's first request, in order. */
  readonly disclosures: string[] = []

  constructor(private readonly options: DisclosureOptions) {
    for (const name of options.initial) if (this.toolset(name)) this.opened.push(name)
    this.apply()
  }

  get open(): readonly string[] {
    return this.opened
  }

  /** `open_toolset` called by the model. */
  openFromCall(args: unknown): DisclosureReply {
    const raw = jsonObjectOf(args)
    const parsed = OpenToolsetArgs.safeParse({ toolset: raw.toolset ?? raw.toolsets ?? raw.name })
    if (!parsed.success)
      return { ok: false, error: `open_toolset needs {"toolset": "<name>"}. ${this.listText()}` }
    const lines: string[] = []
    for (const name of parsed.data.toolset) {
      const toolset = this.toolset(name)
      if (!toolset) {
        const hint = didYouMean(name, this.names())
        return { ok: false, error: `There is no toolset "${name}".${hint} ${this.listText()}` }
      }
      if (this.opened.includes(toolset.name)) lines.push(`${toolset.name} is already open.`)
      else {
        this.add(toolset.name, 'asked')
        lines.push(`Opened ${toolset.name}: ${methodCount(toolset)} are in your tools now.`)
      }
    }
    return { ok: true, text: lines.join(' ') }
  }

  /**
   * Before a method runs: undefined when its toolset is open (or the name is no method at all, which
   * `invoke` reports); otherwise the toolset is opened and the error says to call again.
   */
  gate(name: string): string | undefined {
    const resolved = resolveMethod(this.options.registry, name)
    if (!resolved.ok) return undefined
    const toolset = resolved.target.toolset.name
    if (this.opened.includes(toolset)) return undefined
    this.add(toolset, `called ${resolved.target.name}`)
    return `${resolved.target.name} was not run: the ${toolset} toolset was not open. It is open now and its methods are in your tools; call ${resolved.target.name} again.`
  }

  private add(name: string, reason: string): void {
    this.opened.push(name)
    this.disclosures.push(name)
    this.options.logger?.info('toolset disclosed', { toolset: name, reason })
    this.apply()
  }

  private apply(): void {
    const toolsets = this.opened.flatMap((name) => this.toolset(name) ?? [])
    const methods = buildApiTools(toolsets).map((tool) => ({
      name: tool.function.name,
      description: tool.function.description,
      parameters: tool.function.parameters as Record<string, unknown>,
    }))
    this.options.llm.setTools([...this.options.fixed, ...methods])
  }

  private toolset(name: string): Toolset | undefined {
    const key = name.trim().toLowerCase()
    return this.options.registry.list().find((t) => t.name === key)
  }

  private names(): string[] {
    return this.options.registry.list().map((t) => t.name)
  }

  private listText(): string {
    return `Toolsets: ${this.names().join(', ')}.`
  }
}

function methodCount(toolset: Toolset): string {
  const count = Object.keys(toolset.methods).length
  return `its ${count} method${count === 1 ? '' : 's'} (${toolset.name}_*)`
}
