import type { KnowledgeStatus } from '../../../shared/ipc'

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/**
 * What the model must know about how complete a search's results are: the index is being built, paused
 * or failed, changes are waiting, background indexing is off, or the workspace has more files than are
 * indexed. Undefined when the index is up to date; `synced` says the search itself brought it up to date
 * just before (the on-demand services of the CLI and of eval tasks, whose background indexing is off).
 */
export function searchNote(status: KnowledgeStatus, synced = false): string | undefined {
  const waiting = status.queued > 0 ? ', and more changes are waiting' : ''
  const progress = `${status.done} of ${plural(status.total, 'file')} done`
  const capNote = status.truncated
    ? 'The workspace has more files than the index holds; the rest are not searched.'
    : undefined
  const cap = capNote ? ` ${capNote}` : ''
  if (synced) return capNote
  switch (status.state) {
    case 'indexing':
      return `Indexing: ${progress}${waiting}; results may be incomplete.${cap}`
    case 'paused':
      if (status.done < status.total || status.queued > 0)
        return `Indexing is paused (${progress}${waiting}); files not indexed yet are not searched.${cap}`
      break
    case 'failed':
      return `Indexing failed${status.message ? ` (${status.message})` : ''}; results come from what was indexed before and may be out of date.${cap}`
    case 'off':
      return status.files > 0
        ? `Background indexing is off; results come from the index as last built${status.lastBuild ? ` (${status.lastBuild})` : ''} and may be out of date.${cap}`
        : 'Background indexing is off and nothing has been indexed, so there is nothing to search.'
  }
  return capNote
}
