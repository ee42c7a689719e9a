import { beforeEach, describe, expect, it } from 'vitest'
import { useComposer } from '../../../src/renderer/src/chat/composer/composerStore'
import type { PendingFilesState } from '../../../src/renderer/src/chat/composer/pendingFilesSlice'
import { useVoice } from '../../../src/renderer/src/voice/voiceStore'

const file = (name: string, size: number) => new File([new Uint8Array(size)], name)

// The chat composer and the voice panel keep their pending files through the same slice.
interface PendingStore {
  getState(): PendingFilesState
  setState(partial: Partial<PendingFilesState>): void
}
const stores: Array<[string, PendingStore, string]> = [
  ['chat composer', useComposer, 'f'],
  ['voice panel', useVoice, 'v'],
]

describe.each(stores)('pending files of the %s', (_, store, prefix) => {
  // No host here: the pre-send check is the subject of pendingChips.test.tsx.
  beforeEach(() => store.setState({ files: [], rejected: [], checkFile: undefined }))

  it('admits files within the limits, names the ones left out, and removes one by id', () => {
    store.setState({ limits: { maxFiles: 2, maxFileBytes: 100, maxTotalBytes: 1000 } })
    store.getState().addFiles([file('a.txt', 10), file('big.bin', 500), file('b.txt', 20), file('c.txt', 30)])
    const { files, rejected } = store.getState()
    expect(files.map((f) => f.file.name)).toEqual(['a.txt', 'b.txt'])
    expect(files.every((f) => f.id.startsWith(prefix))).toBe(true)
    expect(new Set(files.map((f) => f.id)).size).toBe(2)
    expect(rejected.map((r) => r.name)).toEqual(['big.bin', 'c.txt'])
    store.getState().removeFile(files[0]?.id ?? '')
    expect(store.getState().files.map((f) => f.file.name)).toEqual(['b.txt'])
    store.getState().dismissRejected()
    expect(store.getState().rejected).toEqual([])
  })

  it('counts files already pending: the same file is not attached twice', () => {
    store.getState().addFiles([file('a.txt', 10)])
    store.getState().addFiles([file('a.txt', 10)])
    expect(store.getState().files).toHaveLength(1)
    expect(store.getState().rejected).toEqual([{ name: 'a.txt', reason: 'already attached' }])
  })
})

describe('voice takeFiles', () => {
  it('hands over the pending files and empties the list', () => {
    useVoice.setState({ files: [], rejected: [{ name: 'x', reason: 'y' }], checkFile: undefined })
    useVoice.getState().addFiles([file('q.pdf', 5)])
    const taken = useVoice.getState().takeFiles()
    expect(taken.map((f) => f.file.name)).toEqual(['q.pdf'])
    expect(useVoice.getState()).toMatchObject({ files: [], rejected: [] })
  })
})
