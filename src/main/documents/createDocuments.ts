import { posix } from 'node:path'
import type { DocumentCounts, DocumentSource, EngineEnv, RenderedDocument } from './documentTypes'

export type { DocumentCounts, DocumentSource, EngineEnv, RenderedDocument } from './documentTypes'
export { MAX_MARKDOWN_CHARS } from './documentTypes'

// The engines (unified, docx, the PDF printer) load with the first document, not with the toolset.
const engines = () => import('./renderEngines')

export async function renderPdf(
  source: DocumentSource,
  env: EngineEnv,
  layout: { pageSize: string; margins: string },
): Promise<RenderedDocument> {
  return (await engines()).renderPdf(source, env, layout)
}

export async function markdownPageHtml(
  source: DocumentSource,
  env: EngineEnv,
): Promise<{ html: string; counts: DocumentCounts; warnings: string[] }> {
  return (await engines()).markdownPageHtml(source, env)
}

export async function renderDocx(
  source: DocumentSource & { template?: string | undefined },
  env: EngineEnv,
): Promise<RenderedDocument> {
  return (await engines()).renderDocx(source, env)
}

export function dirOf(agentPath: string): string {
  return posix.dirname(agentPath)
}
