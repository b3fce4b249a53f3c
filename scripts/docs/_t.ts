import { configReference } from './config-reference.js';
process.stdout.write(configReference());
