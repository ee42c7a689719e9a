import { webToolsetSuite } from './webToolsetSuite'

webToolsetSuite('soak')
