// mammoth's internal modules that `runMammoth.ts` calls (mammoth 1.13.0, pinned exactly).
declare module 'mammoth/lib/docx/docx-reader.js' {
  import type { MammothDocument, MammothResult } from 'mammoth/lib/results.js'
  import type { DocxFile } from 'mammoth/lib/unzip.js'
  export function read(
    file: DocxFile,
    input: Record<string, never>,
    options: unknown,
  ): Promise<MammothResult<MammothDocument>>
}

declare module 'mammoth/lib/docx/style-map.js' {
  import type { DocxFile } from 'mammoth/lib/unzip.js'
  export function readStyleMap(file: DocxFile): Promise<string | undefined | null>
}

declare module 'mammoth/lib/unzip.js' {
  /** What mammoth reads a package through (zipfile.js makes one from JSZip). */
  export interface DocxFile {
    exists(name: string): boolean
    read(name: string, encoding?: string): Promise<string | Uint8Array>
  }
}

declare module 'mammoth/lib/results.js' {
  export interface MammothDocument {
    readonly type: string
  }
  export interface MammothResult<T> {
    readonly value: T
    readonly messages: unknown[]
    flatMapThen<U>(next: (value: T) => Promise<MammothResult<U>>): Promise<MammothResult<U>>
  }
  export const Result: {
    combine<T>(results: MammothResult<T>[]): MammothResult<T[]>
  }
  export function success<T>(value: T): MammothResult<T>
}

declare module 'mammoth/lib/style-reader.js' {
  import type { MammothResult } from 'mammoth/lib/results.js'
  export function readStyle(line: string): MammothResult<unknown>
}

declare module 'mammoth/lib/options-reader.js' {
  export interface ReadOptions {
    embeddedStyleMap?: string | null
    readStyleMap(): string[]
  }
  export function readOptions(options: Record<string, unknown>): ReadOptions
  export const _defaultStyleMap: string[]
}

declare module 'mammoth/lib/document-to-html.js' {
  import type { MammothDocument, MammothResult } from 'mammoth/lib/results.js'
  export class DocumentConverter {
    constructor(options: Record<string, unknown>)
    /** What the output format's writer answers from `asString()` (a string for HTML). */
    convertToHtml(document: MammothDocument): Promise<MammothResult<unknown>>
  }
}

declare module 'mammoth/lib/docx/office-xml-reader.js' {
  export interface XmlElement {
    readonly name: string
  }
  export function read(xml: string): Promise<XmlElement>
}

declare module 'mammoth/lib/docx/styles-reader.js' {
  import type { XmlElement } from 'mammoth/lib/docx/office-xml-reader.js'
  export interface Styles {
    findParagraphStyleById(id: string): unknown
    findCharacterStyleById(id: string): unknown
    findTableStyleById(id: string): unknown
    findNumberingStyleById(id: string): unknown
  }
  export function readStylesXml(root: XmlElement): Styles
}

declare module 'mammoth/lib/xml/index.js' {
  /** mammoth's XML element tree (lib/xml/nodes.js). */
  class Element {
    constructor(name: string, attributes: Record<string, string>, children: unknown[])
    readonly type: 'element'
    readonly name: string
    readonly attributes: Record<string, string>
    children: unknown[]
  }
  const xml: {
    Element: typeof Element
    text(value: string): { type: 'text'; value: string }
    /** Reassignable: office-xml-reader calls it through this module object. */
    readString(xml: string, namespaceMap?: Record<string, string>): Promise<unknown>
  }
  export default xml
}

declare module 'mammoth/lib/styles/document-matchers.js' {
  export interface StyleName {
    operator(first: string, second: string): boolean
    operand: string
  }
  export function equalTo(value: string): StyleName
  export function paragraph(options: object): unknown
  export function run(options: object): unknown
  export const commentReference: unknown
}

declare module 'mammoth/lib/styles/html-paths.js' {
  export function element(
    tagName: string | string[],
    attributes: object,
    options: { fresh?: boolean },
  ): unknown
  export function elements(elements: unknown[]): unknown
  export const empty: unknown
}

declare module 'mammoth/lib/writers/html-writer.js' {
  export interface HtmlWriter {
    open(tagName: string, attributes: Record<string, string>): void
    close(tagName: string): void
    text(value: string): void
    selfClosing(tagName: string, attributes: Record<string, string>): void
    asString(): string
  }
  export function writer(options: { prettyPrint?: boolean }): HtmlWriter
}

declare module 'mammoth/lib/writers/index.js' {
  /** Reassignable: document-to-html.js calls it through this module object. */
  const writers: { writer(options?: { prettyPrint?: boolean; outputFormat?: string }): unknown }
  export default writers
}
