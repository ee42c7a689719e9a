import type { Toolset } from '../../tools'

export interface OpenSignalInput {
  /** Toolsets the conversation used in earlier turns, in order of first use. */
  used: readonly string[]
  /** Names of the files attached to this message. */
  attachmentNames: readonly string[]
  prompt: string
}

const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"']+|\bwww\.[a-z0-9-]+\.[a-z]{2,}/i

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot < 0 ? '' : name.slice(dot).toLowerCase()
}

/**
 * The toolsets a run opens before the model asks, from unambiguous signals only: toolsets used
 * earlier in the conversation stay open, an attachment opens the toolset that edits its type
 * (`.xlsx` -> spreadsheet), a web address opens the toolset that browses, and a run given a single
 * toolset has nothing to choose. The order is the order of these rules, then of the registry, so the
 * same conversation state gives the same tools.
 */
export function initiallyOpen(toolsets: readonly Toolset[], input: OpenSignalInput): string[] {
  if (toolsets.length === 1) return toolsets.map((t) => t.name)
  const known = new Set(toolsets.map((t) => t.name))
  const open: string[] = input.used.filter((name) => known.has(name))
  const add = (name: string) => {
    if (!open.includes(name)) open.push(name)
  }
  const extensions = new Set(input.attachmentNames.map(extensionOf))
  for (const toolset of toolsets)
    if (toolset.openFor?.extensions?.some((ext) => extensions.has(ext))) add(toolset.name)
  if (WEB_ADDRESS.test(input.prompt))
    for (const toolset of toolsets) if (toolset.openFor?.urls) add(toolset.name)
  return open
}
