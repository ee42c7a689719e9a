import { socketGuardSuite } from './socketGuardSuite'

socketGuardSuite('soak')
