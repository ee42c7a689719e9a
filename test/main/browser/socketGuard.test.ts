import { socketGuardSuite } from './socketGuardSuite'

socketGuardSuite('fast')
