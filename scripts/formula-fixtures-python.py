#!/usr/bin/python3
# Writes the workbooks of FORMULA_NOT_CALCULATED as openpyxl writes them (every formula with an empty
# cached value, `<v></v>`, and "calculate on load" asked of whoever opens it), and their twins as
# LibreOffice saves them after opening them (calculated):
#   fixtures/store-cards-formulas-openpyxl.xlsx            Monday's hours are =TIME(...) formulas
#   fixtures/team-members-formulas-openpyxl.xlsx           an email is a formula; a role code is
#                                                          =IF(...,"",...), whose result is empty text
#   fixtures/*-formulas-openpyxl-libreoffice.xlsx          the two, opened and saved by LibreOffice
#   fixtures/team-members-formulas-odfpy.ods               the team members as odfpy writes an .ods:
#                                                          a table:formula and nothing else
#   fixtures/team-members-formulas-odfpy-libreoffice.ods   that, opened and saved by LibreOffice
#   fixtures/team-members-formulas-xlsxwriter.xlsx         the team members as XlsxWriter writes them:
#                                                          every formula's cached value 0, and
#                                                          "calculate on load" asked
#   fixtures/team-members-formulas-xlsxwriter-libreoffice.xlsx  that, opened in LibreOffice set to
#                                                          recalculate on load, and saved (without it,
#                                                          LibreOffice keeps the 0s)
# Run with the distribution's Python and packages (apt-get install python3-openpyxl python3-odf
# python3-xlsxwriter libreoffice-calc-nogui):
#   /usr/bin/python3 scripts/formula-fixtures-python.py
# The LibreOffice twins are made the way the tool's hint tells a person to, which the suite also
# does (test/e2e/formulas-uncalculated.test.ts):
#   soffice --headless --convert-to xlsx --outdir DIR FILE
# (scripts/formula-fixtures.mjs writes the other kind: formulas with no <v> at all, as SheetJS does.)
import os
import re
import shutil
import subprocess
import tempfile
import zipfile

import openpyxl
import xlsxwriter
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures')
DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']


def store_cards(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = 'Stores'
    ws.append(['nodeKey', 'email', 'storeConceptCode'] + [f'{d} {w}' for d in DAYS for w in ('Open', 'Close')])
    # S1's Monday is two formulas (read as empty, it would go out closed); the other days are text.
    ws.append(['S1', 's1@example.com', 12, '=TIME(9,0,0)', '=TIME(17,30,0)'] + ['09:00', '18:00'] * 6)
    ws.append(['S2', 's2@example.com', 12] + ['10:00', '16:00'] * 7)
    for cell in ('D2', 'E2'):
        ws[cell].number_format = 'hh:mm'
    wb.save(path)


def team_members(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = 'Staff'
    ws.append(['employeeID', 'email', 'name', 'roleCode', 'parentKey'])
    # An email made by a formula (read as empty, it would be "email is required"), and a role code
    # whose formula's result is empty text: once calculated, an empty cell like any other.
    ws.append(['E1001', '=LOWER("Jane.Doe@Example.com")', 'Jane Doe', '=IF(TRUE,"","3")', 'S1'])
    ws.append(['E1002', 'bob@example.com', 'Bob Berg', '3', 'S2'])
    wb.save(path)


def team_members_ods(path):
    doc = OpenDocumentSpreadsheet()
    table = Table(name='Staff')

    def text(value):
        cell = TableCell(valuetype='string')
        cell.addElement(P(text=value))
        return cell

    rows = [
        [text(v) for v in ('employeeID', 'email', 'name', 'roleCode', 'parentKey')],
        # The same formulas as the xlsx, in OpenFormula: written, never calculated.
        [text('E1001'), TableCell(formula='of:=LOWER("Jane.Doe@Example.com")'), text('Jane Doe'), TableCell(formula='of:=IF(TRUE();"";"3")'), text('S1')],
        [text(v) for v in ('E1002', 'bob@example.com', 'Bob Berg', '3', 'S2')],
    ]
    for cells in rows:
        row = TableRow()
        for cell in cells:
            row.addElement(cell)
        table.addElement(row)
    doc.spreadsheet.addElement(table)
    doc.save(path)


def team_members_xlsxwriter(path):
    wb = xlsxwriter.Workbook(path)
    ws = wb.add_worksheet('Staff')
    ws.write_row(0, 0, ['employeeID', 'email', 'name', 'roleCode', 'parentKey'])
    # No value given: XlsxWriter saves 0 as each formula's result (a role code 0, read as it is).
    ws.write_row(1, 0, ['E1001'])
    ws.write_formula(1, 1, '=LOWER("Jane.Doe@Example.com")')
    ws.write_row(1, 2, ['Jane Doe'])
    ws.write_formula(1, 3, '=IF(TRUE,"","3")')
    ws.write_row(1, 4, ['S1'])
    ws.write_row(2, 0, ['E1002', 'bob@example.com', 'Bob Berg', '3', 'S2'])
    wb.close()


def short_empty_values(path):
    """The same workbook with `<v/>` for `<v></v>`: the other way an empty value is written."""
    tmp = path + '.tmp'
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, 'w', zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename.startswith('xl/worksheets/'):
                data = re.sub(rb'<v></v>', b'<v/>', data)
            dst.writestr(item, data)
    os.replace(tmp, path)


# Tools > Options > LibreOffice Calc > Formula > Recalculation on File Load: Always recalculate.
ALWAYS_RECALCULATE = '''<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>'''


def libreoffice(path, out, to='xlsx', recalculate=False):
    with tempfile.TemporaryDirectory() as profile, tempfile.TemporaryDirectory() as outdir:
        if recalculate:
            os.makedirs(os.path.join(profile, 'user'))
            with open(os.path.join(profile, 'user', 'registrymodifications.xcu'), 'w') as f:
                f.write(ALWAYS_RECALCULATE)
        command = ['soffice', f'-env:UserInstallation=file://{profile}', '--headless', '--convert-to', to, '--outdir', outdir, path]
        subprocess.run(command, check=True, capture_output=True)
        shutil.move(os.path.join(outdir, os.path.basename(path)), out)


for name, write in (('store-cards', store_cards), ('team-members', team_members)):
    path = os.path.join(FIXTURES, f'{name}-formulas-openpyxl.xlsx')
    write(path)
    if name == 'store-cards':
        short_empty_values(path)
    libreoffice(path, os.path.join(FIXTURES, f'{name}-formulas-openpyxl-libreoffice.xlsx'))

ods = os.path.join(FIXTURES, 'team-members-formulas-odfpy.ods')
team_members_ods(ods)
libreoffice(ods, os.path.join(FIXTURES, 'team-members-formulas-odfpy-libreoffice.ods'), 'ods')

xw = os.path.join(FIXTURES, 'team-members-formulas-xlsxwriter.xlsx')
team_members_xlsxwriter(xw)
libreoffice(xw, os.path.join(FIXTURES, 'team-members-formulas-xlsxwriter-libreoffice.xlsx'), recalculate=True)
