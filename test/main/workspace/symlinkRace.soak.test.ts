import { symlinkRaceSuite } from './symlinkRaceSuite'

symlinkRaceSuite('soak')
