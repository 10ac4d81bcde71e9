// `upload store-cards <file>`: every store card on the service replaced by the file's (../cli/upload-command.ts).
import { uploadCommand } from '../cli/upload-command.js';

export default uploadCommand('store-cards');
