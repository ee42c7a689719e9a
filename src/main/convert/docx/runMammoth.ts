import { DocumentConverter } from 'mammoth/lib/document-to-html.js'
import { read as readDocument } from 'mammoth/lib/docx/docx-reader.js'
import { readStyleMap as readEmbeddedStyleMap } from 'mammoth/lib/docx/style-map.js'
import { readOptions } from 'mammoth/lib/options-reader.js'
import { type MammothResult, Result, success } from 'mammoth/lib/results.js'
import { readStyle } from 'mammoth/lib/style-reader.js'
import type { DocxFile } from 'mammoth/lib/unzip.js'
import writers from 'mammoth/lib/writers/index.js'
import { type TreeOutput, treeWriter } from './markdown/buildTree'
import { installSaxesXmlReader } from './saxesXmlReader'
import { readStyleLine } from './styleLines'

installSaxesXmlReader()

/** mammoth's output format for the light tree: its converter asks `writers.writer` for a writer. */
const TREE_FORMAT = 'bureau-light-tree'
const htmlOrMarkdownWriter = writers.writer
writers.writer = (options) =>
  options?.outputFormat === TREE_FORMAT ? treeWriter() : htmlOrMarkdownWriter(options)

/** Parsed style-map lines: mammoth parses its ~60 default lines again for every document. */
const parsedLines = new Map<string, MammothResult<unknown>>()
const MAX_CACHED_LINES = 500

function parseLine(line: string): MammothResult<unknown> {
  const cached = parsedLines.get(line)
  if (cached) return cached
  const known = readStyleLine(line)
  const parsed = known ? success(known) : readStyle(line)
  if (parsedLines.size < MAX_CACHED_LINES) parsedLines.set(line, parsed)
  return parsed
}

export interface MammothOptions {
  styleMap: string[]
  convertImage: unknown
}

/**
 * mammoth's `convertToHtml` (index.js `convert`, 1.13.0) over a package it is handed, with the style
 * map parsed once per line instead of once per document; same steps, same order (custom, embedded,
 * default mappings), same HTML, written as a light tree (markdown/buildTree.ts) and kept as HTML.
 */
export async function runMammoth(file: DocxFile, options: MammothOptions): Promise<TreeOutput> {
  const merged = readOptions({ ...options, outputFormat: TREE_FORMAT })
  merged.embeddedStyleMap = await readEmbeddedStyleMap(file)
  const document = await readDocument(file, {}, merged)
  const styleMap = Result.combine(merged.readStyleMap().map(parseLine))
  const converter = new DocumentConverter({
    ...merged,
    styleMap: styleMap.value.filter((mapping) => !!mapping),
  })
  const written = await document.flatMapThen((value) => converter.convertToHtml(value))
  return written.value as TreeOutput
}
