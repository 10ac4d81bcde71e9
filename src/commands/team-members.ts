// `upload team-members <file>`: every team member on the service replaced by the file's (../cli/upload-command.ts).
import { uploadCommand } from '../cli/upload-command.js';

export default uploadCommand('team-members');
