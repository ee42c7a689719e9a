import { outlineWriteSuite } from './outlineWriteSuite'

outlineWriteSuite('fast')
