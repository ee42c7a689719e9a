import { outlineWriteSuite } from './outlineWriteSuite'

outlineWriteSuite('soak')
