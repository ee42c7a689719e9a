/** Kinds of interactive element the page Markdown marks inline. */
export const INTERACTIVE_KINDS = [
  'link',
  'button',
  'input',
  'textarea',
  'select',
  'checkbox',
  'radio',
  'tab',
  'menuitem',
  'contenteditable',
] as const
export type InteractiveKind = (typeof INTERACTIVE_KINDS)[number]

export interface SnapshotOptions {
  /** The first id to hand out when the page has no registry yet (ids never repeat within a browser session). */
  nextId: number
  /** Options listed per `<select>` before "+N more". */
  maxOptions: number
  /** Longest `href` kept in a link marker. */
  maxHref: number
  /** Stop walking after this long and say the page was cut. */
  budgetMs: number
  /** Put each element's XPath into its marker (the tool keeps the paths either way). */
  includePaths: boolean
}

/** One interactive element as Node keeps it: enough to find it again by XPath and check it is the same one. */
export interface SnapshotElement {
  id: string
  kind: InteractiveKind
  text: string
  /** XPath inside its own document; null inside a shadow root. */
  path: string | null
  /** XPaths of the iframes that lead to the element's document, outermost first. */
  frames: string[]
}

export interface SnapshotResult {
  url: string
  title: string
  markdown: string
  nextId: number
  elements: SnapshotElement[]
  /** Frames whose content was not read because they are cross-origin. */
  crossOriginFrames: number
  /** True when the walk hit `budgetMs` and the Markdown is cut. */
  cut: boolean
}
