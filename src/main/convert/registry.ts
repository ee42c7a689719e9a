import type { ConvertFormat, FormatConverter } from './types'

type Loader = () => Promise<FormatConverter>

/** One lazily imported module per format, so start-up loads none of the heavy libraries. */
const loaders: Record<ConvertFormat, Loader> = {
  docx: async () => (await import('./formats/docx')).convertDocx,
  pdf: async () => {
    const pdf = await import('./pdf/convertPdf')
    // The engine is compiled and instantiated for the first document: start it now, with the module.
    pdf.preloadPdf()
    return pdf.convertPdf
  },
  xlsx: async () => (await import('./formats/spreadsheet')).convertWorkbook,
  xls: async () => (await import('./formats/spreadsheet')).convertWorkbook,
  csv: async () => (await import('./formats/csv')).convertCsv,
  tsv: async () => (await import('./formats/csv')).convertCsv,
  pptx: async () => (await import('./pptx/convertPptx')).convertPptx,
  html: async () => (await import('./formats/html')).convertHtml,
  text: async () => (await import('./formats/text')).convertText,
  markdown: async () => (await import('./formats/text')).convertText,
  json: async () => (await import('./formats/json')).convertJson,
  ipynb: async () => (await import('./formats/ipynb')).convertNotebook,
  feed: async () => (await import('./formats/feed')).convertFeed,
  epub: async () => (await import('./formats/epub')).convertEpub,
  zip: async () => (await import('./formats/zip')).convertZip,
  image: async () => (await import('./formats/image')).convertImage,
}

/**
 * The loaded converters, kept: a dynamic import of a loaded module still goes through the module
 * loader (resolve hooks, microtasks) on every conversion. A load that fails is asked for again next time
 * (it finds the file once it is there; a module that threw while evaluating stays failed, as in Node).
 */
const loaded = new Map<ConvertFormat, Promise<FormatConverter>>()

export function loadConverter(format: ConvertFormat): Promise<FormatConverter> {
  let converter = loaded.get(format)
  if (!converter) {
    converter = loaders[format]()
    loaded.set(format, converter)
    converter.catch(() => loaded.delete(format))
  }
  return converter
}
