import { symlinkRaceSuite } from './symlinkRaceSuite'

symlinkRaceSuite('fast')
