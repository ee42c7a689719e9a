import { loadTaskSet, shippedEvalDir } from '../../../src/main/eval'
import { describeReplay } from './replaySuite'

// Every task of the shipped suite, reference and wrong solutions (the soak tier).
const evalDir = shippedEvalDir()
describeReplay('replaying every task', evalDir, loadTaskSet(evalDir))
