import { redirectGuardSuite } from './redirectGuardSuite'

redirectGuardSuite('fast')
