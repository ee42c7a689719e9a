import type { Workspace } from '../workspace'
import type { DocumentBrowser } from './chromium/documentBrowser'

export interface DocumentSource {
  markdown: string
  title?: string | undefined
  toc?: boolean | undefined
  /** Folder relative image paths are read from (agent path). */
  baseDir?: string | undefined
}

export interface DocumentCounts {
  headings: number
  tables: number
  diagrams: number
  /** Diagrams that could not be drawn and were kept as code. */
  diagrams_failed: number
  images: number
}

export interface RenderedDocument {
  bytes: Uint8Array
  counts: DocumentCounts
  pages?: number
  warnings: string[]
}

export interface EngineEnv {
  browser: DocumentBrowser
  workspace?: Workspace | undefined
}

export const MAX_MARKDOWN_CHARS = 5_000_000
