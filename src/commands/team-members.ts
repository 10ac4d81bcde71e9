// `upload team-members <file>`: every team member on the service replaced by the file's (./shared/upload-command.ts).
import { uploadCommand } from './shared/upload-command.js';

export default uploadCommand('team-members');
