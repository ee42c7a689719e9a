import { describe, expect, it } from 'vitest'
import { loadTaskSet, shippedEvalDir } from '../../../src/main/eval'
import { describeReplay } from './replaySuite'

// Every task of the shipped suite, reference and wrong solutions (the soak tier).
const evalDir = shippedEvalDir()
const taskSet = loadTaskSet(evalDir)

describe('the whole shipped suite', () => {
  it('has every task of the folder (at least 32), so the replay below covers them all', () => {
    expect(taskSet.tasks.length).toBeGreaterThanOrEqual(32)
  })
})

describeReplay('replaying every task', evalDir, taskSet)
