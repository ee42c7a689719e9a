import { COMMENTS_EX_REL, COMMENTS_REL, elements, partDom, relatedPart, type WordFile } from './wordXml'

export interface CommentSummary {
  id: string
  author: string
  text: string
  reply_to?: string
  resolved: boolean
}

/** The comments of a .docx in order, with the comment each one answers and whether its thread is done. */
export function listComments(file: WordFile): CommentSummary[] {
  const commentsName = relatedPart(file, COMMENTS_REL)
  const comments = commentsName ? partDom(file, commentsName) : undefined
  if (!comments) return []
  const exName = relatedPart(file, COMMENTS_EX_REL)
  const ex = exName ? partDom(file, exName) : undefined
  const states = new Map(
    (ex ? elements(ex, 'w15:commentEx') : []).map((e) => [
      e.getAttribute('w15:paraId') ?? '',
      { parent: e.getAttribute('w15:paraIdParent') ?? '', done: e.getAttribute('w15:done') === '1' },
    ]),
  )
  const entries = elements(comments, 'w:comment').map((comment) => {
    const paragraphs = elements(comment, 'w:p')
    const last = paragraphs[paragraphs.length - 1]
    return {
      id: comment.getAttribute('w:id') ?? '',
      author: comment.getAttribute('w:author') || 'unknown',
      text: paragraphs
        .map((p) =>
          elements(p, 'w:t')
            .map((t) => t.textContent ?? '')
            .join(''),
        )
        .filter(Boolean)
        .join('\n'),
      paraId: last?.getAttribute('w14:paraId') ?? '',
    }
  })
  const byPara = new Map(entries.filter((e) => e.paraId).map((e) => [e.paraId, e.id]))
  return entries.map(({ paraId, ...entry }) => {
    const state = states.get(paraId)
    const parent = state?.parent ? byPara.get(state.parent) : undefined
    return { ...entry, ...(parent ? { reply_to: parent } : {}), resolved: state?.done === true }
  })
}
