import { runCollection } from '@app/plugin-kit';
import { collection } from './collection.definition.js';

void runCollection(collection);
