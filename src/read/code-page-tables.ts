// Single-byte code pages that Node's TextDecoder does not know (it has the WHATWG set only): the DOS
// pages Excel and older HR tools still write, VISCII for Vietnamese, and ISO-8859-16, which Node 24
// reads but Node 22's ICU does not. Each is its 128 characters for bytes 0x80–0xFF (from glibc's iconv
// tables, which agree with Node 24's for ISO-8859-16); VISCII also puts six letters where ASCII has
// rarely used controls.

const HIGH_HALF: Readonly<Record<string, string>> = {
  ibm437: 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0',
  ibm850: 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0',
  ibm852: 'ÇüéâäůćçłëŐőîŹÄĆÉĹĺôöĽľŚśÖÜŤťŁ×čáíóúĄąŽžĘę¬źČş«»░▒▓│┤ÁÂĚŞ╣║╗╝Żż┐└┴┬├─┼Ăă╚╔╩╦╠═╬¤đĐĎËďŇÍÎě┘┌█▄ŢŮ▀ÓßÔŃńňŠšŔÚŕŰýÝţ´\u00ad˝˛ˇ˘§÷¸°¨˙űŘř■\u00a0',
  'iso-8859-16':
    '\u0080\u0081\u0082\u0083\u0084\u0085\u0086\u0087\u0088\u0089\u008a\u008b\u008c\u008d\u008e\u008f\u0090\u0091\u0092\u0093\u0094\u0095\u0096\u0097\u0098\u0099\u009a\u009b\u009c\u009d\u009e\u009f' +
    '\u00a0ĄąŁ€„Š§š©Ș«Ź\u00adźŻ°±ČłŽ”¶·žčș»ŒœŸżÀÁÂĂÄĆÆÇÈÉÊËÌÍÎÏĐŃÒÓÔŐÖŚŰÙÚÛÜĘȚßàáâăäćæçèéêëìíîïđńòóôőöśűùúûüęțÿ',
  viscii: 'ẠẮẰẶẤẦẨẬẼẸẾỀỂỄỆỐỒỔỖỘỢỚỜỞỊỎỌỈỦŨỤỲÕắằặấầẩậẽẹếềểễệốồổỗỠƠộờởịỰỨỪỬơớƯÀÁÂÃẢĂẳẵÈÉÊẺÌÍĨỳĐứÒÓÔạỷừửÙÚỹỵÝỡưàáâãảăữẫèéêẻìíĩỉđựòóôõỏọụùúũủýợỮ',
};

const VISCII_LOW: Readonly<Record<number, string>> = { 0x02: 'Ẳ', 0x05: 'Ẵ', 0x06: 'Ẫ', 0x14: 'Ỷ', 0x19: 'Ỹ', 0x1e: 'Ỵ' };

/** The names these pages go by (`--encoding cp852` is `ibm852`). */
const ALIASES: Readonly<Record<string, string>> = {
  ibm437: 'ibm437',
  cp437: 'ibm437',
  '437': 'ibm437',
  ibm850: 'ibm850',
  cp850: 'ibm850',
  '850': 'ibm850',
  ibm852: 'ibm852',
  cp852: 'ibm852',
  '852': 'ibm852',
  viscii: 'viscii',
  'iso-8859-16': 'iso-8859-16',
  'iso8859-16': 'iso-8859-16',
  'iso_8859-16': 'iso-8859-16',
  latin10: 'iso-8859-16',
  l10: 'iso-8859-16',
};

/** The same shape as TextDecoder where decode.ts uses it. */
export interface TableDecoder {
  readonly encoding: string;
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

/** A decoder for one of these pages, by any of its names; undefined for any other label. */
export function tableDecoder(label: string): TableDecoder | undefined {
  const encoding = ALIASES[label.trim().toLowerCase()];
  if (encoding === undefined) return undefined;
  const table: string[] = [];
  for (let b = 0; b < 128; b++) table.push(encoding === 'viscii' ? (VISCII_LOW[b] ?? String.fromCharCode(b)) : String.fromCharCode(b));
  table.push(...HIGH_HALF[encoding]!);
  return {
    encoding,
    decode(input = new Uint8Array(0)) {
      // One byte, one character: no state between chunks. Joined in slices to stay linear.
      let out = '';
      for (let i = 0; i < input.length; i += 4096) {
        const part: string[] = [];
        for (const b of input.subarray(i, i + 4096)) part.push(table[b]!);
        out += part.join('');
      }
      return out;
    },
  };
}
