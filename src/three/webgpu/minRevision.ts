/**
 * The three.js release whose `three/tsl` this entry is written against and tested on: the oldest it runs on.
 * A module of its own, without side effects, so that the tests can read it without loading the entry.
 */
export const WEBGPU_MIN_REVISION = 187
