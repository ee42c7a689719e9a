import { posix } from 'node:path'
import { imageSize } from 'image-size'
import type { Code, Image, Root } from 'mdast'
import type { Workspace } from '../../workspace'
import type { DocumentBrowser } from '../chromium/documentBrowser'
import { type DiagramResult, renderDiagrams } from '../diagrams/renderDiagrams'
import { collect, isImage, isMermaid } from './parseMarkdown'

export type ImageType = 'png' | 'jpg' | 'gif' | 'bmp' | 'svg' | 'webp'
export interface LoadedImage {
  bytes: Uint8Array
  type: ImageType
  width: number
  height: number
}

/** Everything a renderer needs besides the Markdown tree: pictures read, diagrams drawn, what went wrong. */
export interface DocumentAssets {
  images: Map<Image, LoadedImage>
  diagrams: Map<Code, DiagramResult>
  warnings: string[]
}

export interface AssetOptions {
  workspace?: Workspace | undefined
  /** Folder of the document being written: relative image paths start there. */
  baseDir: string
  browser: DocumentBrowser
  /** DOCX embeds diagrams as PNG; PDF uses the SVG. */
  png: boolean
}

const MAX_IMAGE_BYTES = 20 * 1024 * 1024
const TYPES: Record<string, ImageType> = {
  png: 'png',
  jpg: 'jpg',
  gif: 'gif',
  bmp: 'bmp',
  svg: 'svg',
  webp: 'webp',
}

function decodeDataUri(url: string): Uint8Array | undefined {
  const match = /^data:image\/[a-z+.-]+;base64,(.*)$/is.exec(url)
  return match?.[1] ? new Uint8Array(Buffer.from(match[1], 'base64')) : undefined
}

async function readImage(url: string, options: AssetOptions): Promise<Uint8Array> {
  const inline = decodeDataUri(url)
  if (inline) return inline
  if (/^[a-z][a-z0-9+.-]*:/i.test(url))
    throw new Error('only workspace images are embedded (nothing is downloaded)')
  if (!options.workspace) throw new Error('no workspace is open')
  const path = url.startsWith('/') ? url : posix.join(options.baseDir, decodeURI(url))
  return new Uint8Array(await options.workspace.readFile(path, { maxBytes: MAX_IMAGE_BYTES }))
}

async function loadImage(url: string, options: AssetOptions): Promise<LoadedImage> {
  const bytes = await readImage(url, options)
  const size = imageSize(bytes)
  const type = TYPES[size.type === 'jpeg' ? 'jpg' : (size.type ?? '')]
  if (!type || !size.width || !size.height) throw new Error('not a PNG, JPEG, GIF, BMP, SVG or WebP picture')
  return { bytes, type, width: size.width, height: size.height }
}

function shortError(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unreadable'
}

export async function prepareAssets(root: Root, options: AssetOptions): Promise<DocumentAssets> {
  const warnings: string[] = []
  const images = new Map<Image, LoadedImage>()
  for (const image of collect(root, isImage)) {
    try {
      images.set(image, await loadImage(image.url, options))
    } catch (error) {
      warnings.push(`Image "${image.url}" was left out: ${shortError(error)}.`)
    }
  }
  const blocks = collect(root, isMermaid)
  const drawn = await renderDiagrams(
    options.browser,
    blocks.map((block) => block.value),
    { png: options.png },
  )
  const diagrams = new Map<Code, DiagramResult>()
  for (const [index, block] of blocks.entries()) {
    const result = drawn[index] ?? { ok: false as const, error: 'not drawn' }
    diagrams.set(block, result)
    if (!result.ok) warnings.push(`Diagram ${index + 1} could not be drawn (kept as code): ${result.error}`)
  }
  return { images, diagrams, warnings }
}
