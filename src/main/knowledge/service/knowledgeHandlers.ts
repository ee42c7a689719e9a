import type { KnowledgePassage } from '../../../shared/ipc/routes/knowledge'
import type { KnowledgeService } from './knowledgeService'

const CONTEXT_CHARS = 1_500

/** The `knowledge.*` routes: status, pause/resume and the preview behind a citation click. */
export function knowledgeHandlers(knowledge: () => KnowledgeService) {
  return {
    'knowledge.status': () => knowledge().status(),
    'knowledge.pause': async (input: { paused: boolean }) => {
      if (input.paused) knowledge().pause()
      else knowledge().resume()
      return knowledge().status()
    },
    'knowledge.passage': async (input: {
      path: string
      start: number
      end: number
    }): Promise<KnowledgePassage> => {
      const { markdown, format } = await knowledge().markdownOf(input.path)
      const start = Math.min(input.start, markdown.length)
      const end = Math.min(Math.max(input.end, start), markdown.length)
      return {
        path: input.path,
        format,
        before: markdown.slice(Math.max(0, start - CONTEXT_CHARS), start),
        passage: markdown.slice(start, end),
        after: markdown.slice(end, end + CONTEXT_CHARS),
      }
    },
  }
}
