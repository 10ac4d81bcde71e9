// `upload store-cards <file>`: every store card on the service replaced by the file's (./shared/upload-command.ts).
import { uploadCommand } from './shared/upload-command.js';

export default uploadCommand('store-cards');
