// Single-byte code pages that Node's TextDecoder does not know (it has the WHATWG set only, in Node 22
// and 24 alike): the DOS pages Excel and older HR tools still write, and VISCII for Vietnamese. Each is
// its 128 characters for bytes 0x80–0xFF (from glibc's iconv tables); VISCII also puts six letters
// where ASCII has rarely used controls.

const HIGH_HALF: Readonly<Record<string, string>> = {
  ibm437: 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0',
  ibm850: 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0',
  ibm852: 'ÇüéâäůćçłëŐőîŹÄĆÉĹĺôöĽľŚśÖÜŤťŁ×čáíóúĄąŽžĘę¬źČş«»░▒▓│┤ÁÂĚŞ╣║╗╝Żż┐└┴┬├─┼Ăă╚╔╩╦╠═╬¤đĐĎËďŇÍÎě┘┌█▄ŢŮ▀ÓßÔŃńňŠšŔÚŕŰýÝţ´\u00ad˝˛ˇ˘§÷¸°¨˙űŘř■\u00a0',
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
