import { redirectGuardSuite } from './redirectGuardSuite'

redirectGuardSuite('soak')
