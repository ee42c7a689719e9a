import { webToolsetSuite } from './webToolsetSuite'

webToolsetSuite('fast')
