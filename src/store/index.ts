export { PetStore } from './pet-store.js';
export type { PetStoreOptions, CreateResult } from './pet-store.js';
export { readNewPet } from './new-pet.js';
export type { NewPetResult } from './new-pet.js';
export { parseSeed, seedPets, readSeedText, loadSeedFile, SeedError } from './seed.js';
export type { SeedPet } from './seed.js';
export { ID_MODES, isPetId } from './ids.js';
export type { IdMode } from './ids.js';
export { readStateFile, writeStateFile, persistPeriodically, removeStaleTemporaries } from './state-file.js';
