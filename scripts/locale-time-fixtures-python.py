#!/usr/bin/python3
# Writes fixtures/store-cards-locale-times-openpyxl.xlsx: opening hours as time cells in Excel's
# locale formats, as openpyxl writes them (the format code as given, in xl/styles.xml):
#   Monday     [$-40B]h.mm;@        Finnish, as Excel's Finnish time format is saved: 9.30 and 21.00
#   Tuesday    [$-40B]hh.mm;@       Finnish with two-digit hours: 08.00 and 20.30
#   Wednesday  [$-409]h:mm AM/PM;@  US English: 10:00 AM and 6:00 PM
# The tool reads each as the time shown (test/e2e/workbook-as-shown.test.ts).
# Run with the distribution's Python and packages (apt-get install python3-openpyxl):
#   /usr/bin/python3 scripts/locale-time-fixtures-python.py
import datetime
import os

import openpyxl

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'fixtures', 'store-cards-locale-times-openpyxl.xlsx')

book = openpyxl.Workbook()
sheet = book.active
sheet.title = 'Kaupat'
sheet.append(['nodeKey', 'email', 'Mon open', 'Mon close', 'Tue open', 'Tue close', 'Wed open', 'Wed close'])
sheet.append(['FI-001', 'helsinki@example.com'])
times = [
    ('C2', datetime.time(9, 30), '[$-40B]h.mm;@'),
    ('D2', datetime.time(21, 0), '[$-40B]h.mm;@'),
    ('E2', datetime.time(8, 0), '[$-40B]hh.mm;@'),
    ('F2', datetime.time(20, 30), '[$-40B]hh.mm;@'),
    ('G2', datetime.time(10, 0), '[$-409]h:mm AM/PM;@'),
    ('H2', datetime.time(18, 0), '[$-409]h:mm AM/PM;@'),
]
for ref, value, code in times:
    sheet[ref] = value
    sheet[ref].number_format = code
book.save(OUT)
