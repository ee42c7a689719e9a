import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { settingsLocalEmbeddings } from '../../../../src/main/llm/providers/settingsAdapter'
import { openSettings } from '../../../../src/main/settings'

const dataDir = await mkdtemp(join(tmpdir(), 'bureau-embed-settings-'))
afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe('local embeddings from the settings', () => {
  it('an embedding model that is not installed is to be imported, not pulled from the chat catalogue', async () => {
    const settings = await openSettings({ dataDir, env: () => undefined })
    const source = settingsLocalEmbeddings(settings, dataDir)
    const failure = source.embed('text-embedding-3-small', ['a passage'])
    await expect(failure).rejects.toThrow(
      'The embedding model "text-embedding-3-small" is not installed. Import a GGUF embedding model with `bureau models import <file.gguf>`',
    )
    await expect(failure).rejects.not.toThrow('bureau models pull')
  })
})
