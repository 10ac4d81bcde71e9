// Employment status as HR and payroll systems export it: the column each product writes and the
// values it writes there, as data (one row per product or language). A row's `active` values are the
// ones the tool believes mean "still employed" (it offers them to --active, never sends on them by
// itself); `gone` values mean the person left. Values in neither list (`Hired`, `Onboarding`,
// `Pre-Start`) are shown to the person and kept out of the offer. Read by ./status-column.ts.
//
// People on leave are still employed: their record stays in the schedule, so leave counts as active.
// Headers that are a yes/no question (`Active`, `Archived`) carry booleans; which answer means "left"
// depends on the question, so they have rows of their own.

export interface StatusExport {
  /** The product, or the language for the generic words. */
  readonly source: string;
  /** Header names, as the export writes them (compared by normalise(): case, accents, spaces ignored). */
  readonly columns: readonly string[];
  readonly active: readonly string[];
  readonly gone: readonly string[];
  /** Values seen in the product's exports that say neither (not offered to --active). */
  readonly other?: readonly string[];
  /** An empty cell means still employed: a "gone?" column (`Leaver`, `Archived`) is ticked only for leavers. */
  readonly emptyIsActive?: true;
}

// Yes and no in the languages of ./weekdays.ts, and as spreadsheets and databases write them.
const YES = [
  '1',
  'true',
  'yes',
  'y',
  'x',
  'ja',
  'j',
  'wahr',
  'oui',
  'vrai',
  'sí',
  'si',
  'verdadero',
  'vero',
  'sim',
  'verdadeiro',
  'tak',
  'taip',
  'evet',
  'はい',
  '真',
];
const NO = ['0', 'false', 'no', 'n', 'nein', 'falsch', 'non', 'faux', 'nee', 'falso', 'não', 'nao', 'nie', 'ne', 'nej', 'hayır', 'いいえ', '偽'];

/** A yes/no column that asks "still here?" (`Active`) or "gone?" (`Archived`). */
const still = (source: string, columns: readonly string[]): StatusExport => ({ source, columns, active: YES, gone: NO });
const left = (source: string, columns: readonly string[]): StatusExport => ({ source, columns, active: NO, gone: YES, emptyIsActive: true });

export const STATUS_EXPORTS: readonly StatusExport[] = [
  // ADP Workforce Now and RUN: `Position Status` (A, L, T in the code view), `Employee Status`.
  {
    source: 'ADP',
    columns: ['Position Status', 'Employee Status', 'Employment Status', 'Status', 'Position Status Code'],
    active: ['Active', 'Leave', 'A', 'L'],
    gone: ['Terminated', 'Deceased', 'Inactive', 'T', 'D'],
  },
  // Paychex Flex: `Status` as one letter (A active, L leave, T terminated, I inactive).
  {
    source: 'Paychex',
    columns: ['Status', 'Employee Status', 'Employment Status'],
    active: ['A', 'L', 'Active', 'Leave'],
    gone: ['T', 'I', 'Terminated', 'Inactive'],
  },
  // Homebase: people who left are archived, in `Status` or a yes/no `Archived`.
  { source: 'Homebase', columns: ['Status', 'Employee Status'], active: ['Active'], gone: ['Archived', 'Terminated'], other: ['Invited', 'Pending'] },
  left('Homebase', ['Archived', 'Is Archived']),
  // Deputy: `Active` is 1 or 0.
  still('Deputy', ['Active', 'Is Active', 'Active Employee']),
  // Rippling: `Role state` (its API's roleState), also exported as `Employment status`.
  {
    source: 'Rippling',
    columns: ['Role state', 'Role status', 'Employment status', 'Status'],
    active: ['ACTIVE'],
    gone: ['TERMINATED'],
    other: ['INIT', 'HIRED', 'ACCEPTED'],
  },
  // HiBob: `Lifecycle status`; garden leave is a notice period on the way out, so neither.
  {
    source: 'HiBob',
    columns: ['Lifecycle status', 'Employment status', 'Status'],
    active: ['Employed', 'Leave', 'On leave'],
    gone: ['Terminated', 'Inactive'],
    other: ['Hired', 'Garden leave'],
  },
  // Gusto: people let go are `Dismissed`.
  { source: 'Gusto', columns: ['Employment Status', 'Status'], active: ['Active'], gone: ['Dismissed', 'Terminated'], other: ['Onboarding'] },
  // Workday: `Worker Status` or `Employment Status`; `Active Status` is Yes/No (its Active boolean).
  {
    source: 'Workday',
    columns: ['Worker Status', 'Employment Status', 'Employee Status', 'Status'],
    active: ['Active', 'On Leave', 'Leave of Absence'],
    gone: ['Terminated', 'Inactive', 'Retired'],
    other: ['Pre-Hire'],
  },
  still('Workday', ['Active Status', 'Is Active']),
  left('Workday', ['Terminated', 'Is Terminated']),
  // BambooHR: `Status` is Active or Inactive; `Employment Status` is the kind of work, or Terminated.
  { source: 'BambooHR', columns: ['Status'], active: ['Active'], gone: ['Inactive'] },
  {
    source: 'BambooHR',
    columns: ['Employment Status'],
    active: ['Full-Time', 'Part-Time', 'Contractor', 'Intern', 'Seasonal', 'Temporary', 'Furloughed'],
    gone: ['Terminated'],
  },
  // Personio: `Status` (English and German UI).
  {
    source: 'Personio',
    columns: ['Status', 'Employment status', 'Beschäftigungsstatus', 'Mitarbeiterstatus'],
    active: ['active', 'leave', 'Aktiv', 'Abwesend', 'Beurlaubt'],
    gone: ['inactive', 'Inaktiv', 'Ausgeschieden'],
    other: ['onboarding'],
  },
  // SAP SuccessFactors: `Employee Status` (emplStatus), by name or by its one-letter code.
  {
    source: 'SuccessFactors',
    columns: ['Employee Status', 'Employment Status', 'Status', 'Employee Status Code'],
    active: ['Active', 'Paid Leave', 'Unpaid Leave', 'A', 'P', 'U'],
    gone: ['Terminated', 'Retired', 'Discarded', 'Reported No Show', 'Dormant', 'T', 'R'],
    other: ['Suspended', 'S'],
  },
  // UKG Pro / Ready (Kronos): `Employee Status` or its code.
  {
    source: 'UKG',
    columns: ['Employee Status', 'Employee Status Code', 'Employment Status', 'Status'],
    active: ['Active', 'Leave of Absence', 'A', 'L'],
    gone: ['Terminated', 'Inactive', 'T'],
  },
  // Dayforce: `Employment Status` / `Status`.
  {
    source: 'Dayforce',
    columns: ['Employment Status', 'Status', 'Employee Status'],
    active: ['Active', 'Leave of Absence', 'Paid Leave', 'Unpaid Leave'],
    gone: ['Terminated', 'Inactive', 'Deceased', 'Retired'],
    other: ['Pre-Start'],
  },
  // Sage HR, Sage People, Sage 50 Payroll: Current/Leaver, or a yes/no `Leaver`.
  {
    source: 'Sage',
    columns: ['Employment Status', 'Status', 'Employee Status'],
    active: ['Current', 'Active', 'Employed'],
    gone: ['Leaver', 'Left', 'Inactive', 'Terminated'],
  },
  left('Sage', ['Leaver', 'Is Leaver']),

  // The words of the other languages the tool reads (./weekdays.ts LANGUAGES), for any status column.
  {
    source: 'English',
    columns: ['Status', 'Employment Status', 'Employee Status', 'Worker Status', 'Employment State'],
    active: ['Active', 'Employed', 'Current', 'On Leave'],
    gone: [
      'Terminated',
      'Inactive',
      'Leaver',
      'Left',
      'Former',
      'Former Employee',
      'Resigned',
      'Retired',
      'Withdrawn',
      'Deceased',
      'Dismissed',
      'Separated',
      'Exited',
      'Archived',
    ],
  },
  {
    source: 'Deutsch',
    columns: ['Status', 'Beschäftigungsstatus', 'Mitarbeiterstatus', 'Personalstatus', 'Beschäftigungsverhältnis Status'],
    active: ['Aktiv', 'Beschäftigt', 'Beurlaubt', 'In Elternzeit'],
    gone: ['Ausgetreten', 'Ausgeschieden', 'Inaktiv', 'Gekündigt', 'Beendet', 'Austritt', 'Archiviert'],
  },
  still('Deutsch', ['Aktiv']),
  left('Deutsch', ['Ausgetreten', 'Archiviert']),
  {
    source: 'Nederlands',
    columns: ['Status', 'Dienstverband status', 'Medewerkerstatus'],
    active: ['Actief', 'In dienst', 'Met verlof'],
    gone: ['Inactief', 'Uit dienst', 'Vertrokken', 'Gearchiveerd'],
  },
  still('Nederlands', ['Actief']),
  left('Nederlands', ['Uit dienst', 'Gearchiveerd']),
  {
    source: 'Français',
    columns: ['Statut', "Statut d'emploi", 'Statut du salarié', 'Statut salarié'],
    active: ['Actif', 'Active', 'En poste', 'En congé'],
    gone: ['Inactif', 'Inactive', 'Sorti', 'Sortie', 'Parti', 'Démissionnaire', 'Licencié', 'Archivé'],
  },
  still('Français', ['Actif']),
  left('Français', ['Sorti', 'Archivé']),
  {
    source: 'Español',
    columns: ['Estado', 'Estado laboral', 'Estado del empleado', 'Situación laboral'],
    active: ['Activo', 'Activa', 'Alta', 'De alta', 'De baja médica', 'Excedencia'],
    gone: ['Baja', 'De baja', 'Dado de baja', 'Inactivo', 'Inactiva', 'Cesado', 'Archivado'],
  },
  still('Español', ['Activo']),
  left('Español', ['Archivado', 'Dado de baja']),
  {
    source: 'Italiano',
    columns: ['Stato', 'Stato dipendente', 'Stato del rapporto'],
    active: ['Attivo', 'Attiva', 'In servizio', 'In congedo'],
    gone: ['Cessato', 'Cessata', 'Inattivo', 'Inattiva', 'Dimesso', 'Archiviato'],
  },
  still('Italiano', ['Attivo']),
  left('Italiano', ['Cessato', 'Archiviato']),
  {
    source: 'Português',
    columns: ['Estado', 'Situação', 'Status'],
    active: ['Ativo', 'Ativa', 'Em licença', 'Afastado'],
    gone: ['Inativo', 'Inativa', 'Desligado', 'Demitido', 'Arquivado'],
  },
  still('Português', ['Ativo']),
  left('Português', ['Desligado', 'Arquivado']),
  {
    source: 'Polski',
    columns: ['Status', 'Status zatrudnienia', 'Status pracownika'],
    active: ['Aktywny', 'Aktywna', 'Zatrudniony', 'Na urlopie'],
    gone: ['Nieaktywny', 'Nieaktywna', 'Zwolniony', 'Zwolniona', 'Zarchiwizowany'],
  },
  still('Polski', ['Aktywny']),
  {
    source: 'Lietuvių',
    columns: ['Būsena', 'Statusas', 'Darbo statusas'],
    active: ['Aktyvus', 'Aktyvi', 'Dirba', 'Atostogose'],
    gone: ['Neaktyvus', 'Neaktyvi', 'Atleistas', 'Atleista', 'Išėjęs'],
  },
  still('Lietuvių', ['Aktyvus']),
  {
    source: 'Svenska',
    columns: ['Status', 'Anställningsstatus'],
    active: ['Aktiv', 'Anställd', 'Tjänstledig'],
    gone: ['Inaktiv', 'Avslutad', 'Slutat', 'Arkiverad'],
  },
  still('Svenska', ['Aktiv']),
  left('Svenska', ['Slutat', 'Arkiverad']),
  {
    source: 'Dansk/Norsk',
    columns: ['Status', 'Ansættelsesstatus', 'Ansettelsesstatus'],
    active: ['Aktiv', 'Ansat', 'Ansatt', 'Orlov', 'Permisjon'],
    gone: ['Inaktiv', 'Fratrådt', 'Opsagt', 'Sluttet', 'Arkiveret', 'Arkivert'],
  },
  still('Dansk/Norsk', ['Aktiv']),
  left('Dansk/Norsk', ['Fratrådt', 'Sluttet']),
  {
    source: 'Türkçe',
    columns: ['Durum', 'Çalışma durumu', 'Personel durumu'],
    active: ['Aktif', 'Çalışıyor', 'İzinli'],
    gone: ['Pasif', 'Ayrıldı', 'İşten ayrıldı', 'İşten çıkarıldı', 'Arşivlendi'],
  },
  still('Türkçe', ['Aktif']),
  { source: '日本語', columns: ['ステータス', '在籍状況', '在籍区分', '雇用状態'], active: ['在籍', '在職', '休職'], gone: ['退職', '退職済', '離職'] },
  still('日本語', ['在籍']),
  left('日本語', ['退職']),
];

/**
 * Values that say what kind of work someone does (BambooHR's `Employment Status`), not whether they
 * are still here: a column holding only these is not a status column by its values.
 */
export const KINDS_OF_WORK = ['Full-Time', 'Part-Time', 'Contractor', 'Intern', 'Seasonal', 'Temporary', 'Furloughed'];

/** A store list's status column: a store closed for good is a leaver too (store cards). */
export const STORE_STATUS = {
  columns: ['Status', 'Store Status', 'Filialstatus'],
  gone: ['Closed', 'Permanently closed', 'Inactive', 'Geschlossen', 'Fermé', 'Cerrado', 'Chiuso'],
};
