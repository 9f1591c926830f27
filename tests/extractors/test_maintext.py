"""Main-text behaviours of issue 13, each on a real fixture page that showed the failure:
furniture named in the markup, the story container, the walk over a node's own text, the
noscript fallback, word boundaries between inline elements and link-only edge lines."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from evaluation.metrics import page_f1, shingle_match, snippet_counts
from extractors import extract, is_thread, parse_page
from extractors.attenuation import (extract_main_text, find_subject_region, region_text,
                                    story_siblings)
from extractors.boilerplate import (furniture_mask, is_related_label, read_markup,
                                    screen_reader_rows)
from extractors.story import story_container
from tests.fixture_pages import FIXTURES, fixture, page_bytes


def _extract(name: str):
    gold = fixture(name)
    return gold, extract(page_bytes(gold), url=gold.get("url"))


def _first_line(text: str) -> str:
    return next(line.strip() for line in text.splitlines() if line.strip())


def test_comment_thread_longer_than_the_story_is_not_the_body():
    # givewell.org open thread: 7,450 characters of comments after a 419-character post; the
    # attenuation walk alone returned the comments (F1 0).
    gold, result = _extract("aeb-00119.html")
    assert result.body.startswith(_first_line(gold["body"])[:60])
    assert " said:" not in result.body and "Milan Griffes" not in result.body


def test_furniture_mask_removes_the_comment_list_and_keeps_the_post():
    page = parse_page(page_bytes(fixture("aeb-00119.html")))
    keep = furniture_mask(page.nodes)
    kept = page.nodes.masked(keep)
    assert kept.nonlink_text[0] < page.nodes.nonlink_text[0] / 3  # the thread is gone
    assert extract_main_text(page, content=keep).text.startswith("Our goal with hosting")


def test_story_container_keeps_the_more_stories_rail_out():
    # washingtonexaminer.com: the story (itemprop=articleBody) shares <body> with a longer
    # "More Washington Examiner" rail; the walk from body stopped at body itself.
    gold, result = _extract("aeb-00159.html")
    assert "More Washington Examiner" not in result.body
    assert "Carlos Ghosn" not in result.body
    assert result.body.startswith(_first_line(gold["body"])[:60])
    page = parse_page(page_bytes(gold))
    row = story_container(page.nodes, read_markup(page.nodes))
    assert row is not None and page.nodes.elements[row].get("itemprop") == "articleBody"


def test_a_box_among_the_story_paragraphs_stays():
    # bbc.com: an <aside class="pullout"> analysis box set between the paragraphs is part of
    # the (silver) gold body; a landmark tag alone does not remove it there.
    gold, result = _extract("cx_bbc-00082.html")
    # (its byline "By Angus Crawford" goes with every byline since the byline words were measured)
    assert "Analysis" in gold["body"] and "Police officers stood, their arms crossed" in result.body


def test_a_story_wrapper_named_after_an_ad_slot_stays():
    # almanac.com wraps the story in "body-ad-wrapper"; "ad" alone would remove the story.
    gold, result = _extract("wcxb_dev-01374.html")
    assert "Every garden faces pests" in result.body
    assert len(result.body) > 0.5 * len(gold["body"])


def test_the_walk_stops_at_a_node_whose_own_text_holds_the_story():
    # target.com: the review text sits in a node beside a small element child; stepping through
    # it as a single-child node (the former walk) lost it.
    gold, result = _extract("wcxb_dev-00605.html")
    assert "@grillfatherbbq.2020 Often ppl miss the concept" in result.body
    nodes = parse_page(page_bytes(gold)).nodes
    region = find_subject_region(nodes)
    children = nodes.children(region)
    assert nodes.nonlink_text[region] > nodes.nonlink_text[children].max(initial=0)


def test_noscript_text_is_read_when_the_page_has_no_other():
    # A Discourse forum serves the thread inside <noscript>: the page was empty before.
    gold = fixture("wcxb_dev-00492.html")
    page = parse_page(page_bytes(gold))
    assert "noscript" in page.nodes.tag
    result = extract(page_bytes(gold))
    assert "We’re on Teams and whatever version was released last night" in result.body


def test_noscript_is_dropped_on_a_page_with_text():
    page = parse_page(page_bytes(fixture("aeb-00159.html")))
    assert "noscript" not in page.nodes.tag


def test_whitespace_between_inline_elements_is_kept():
    html = (b"<html><body><div><p>The <b>Fed</b> said: <a href=/x><strong>Fed statement"
            b"</strong></a> </strong></b>to markets, <i>now</i> <em>again</em>.</p></div>"
            b"</body></html>")
    assert extract(html).body == "The Fed said: Fed statement to markets, now again."


def test_code_spans_keep_their_spaces():
    # twilio.com quickstart: highlighted code is one <span> per token with spaces between; the
    # page's text read "fromflaskimportFlask".
    nodes = parse_page(page_bytes(fixture("wcxb_dev-00663.html"))).nodes
    text = nodes.inner_text(0)
    assert "from flask import Flask" in text and "fromflaskimportFlask" not in text


def test_skip_link_named_in_the_markup_is_left_out():
    # morebikes.co.uk: the "Skip to content" link (class "skip-link") led the body.
    gold, result = _extract("aeb-00065.html")
    assert not result.body.startswith("Skip to content")
    assert result.body.startswith(_first_line(gold["body"])[:40])


def test_link_only_edge_lines_are_dropped_only_when_asked():
    page = parse_page(b"<html><body><div><p><a href=/s>Skip to content</a></p>"
                      b"<p>The story, long enough to count as a paragraph.</p>"
                      b"<p><a href=/a>A linked line inside the story</a></p>"
                      b"<p>More of the story, long enough as well.</p>"
                      b"<p><a href=/b>Read more</a></p></div></body></html>")
    keep = np.ones(len(page.nodes), dtype=bool)
    trimmed = region_text(page.nodes, keep, drop_link_lines=True)
    assert trimmed.splitlines()[0].startswith("The story") and "Read more" not in trimmed
    assert "A linked line inside the story" in trimmed
    assert "Skip to content" in region_text(page.nodes, keep)  # the chain's setting: off


def test_furniture_mask_keeps_everything_on_a_page_without_labels():
    page = parse_page(b"<html><body><div><p>Plain text.</p><p>More text.</p></div></body></html>")
    assert furniture_mask(page.nodes).all()
    assert np.array_equal(read_markup(page.nodes).weak_attribute, np.zeros(len(page.nodes), bool))


def test_an_unclosed_button_does_not_swallow_the_story():
    # southernliving.com (wcxb_dev): a header menu <button> left open holds the whole page in
    # libxml2's tree, and buttons are dropped with their content: the body was empty. The story's
    # in-text links (class "recommendation-inline-link") stay in their sentences.
    gold, result = _extract("wcxb_dev-00948.html")
    assert result.body.startswith(_first_line(gold["body"])[:60])
    assert "set aside as a vegetable garden. It" in result.body
    assert all(snippet in result.body for snippet in gold["with"])


def test_a_wrapper_named_for_sharing_that_holds_the_story_stays():
    # piratenpartei-hessen.de (trafilatura_eval): the post sits inside div#socialicons-sticky,
    # 84 % of the page's text; removed as a share bar, the body was the headline alone.
    gold, result = _extract("trafilatura_eval-00353.html")
    assert all(snippet in result.body for snippet in gold["with"])
    assert not any(snippet in result.body for snippet in gold["without"])


@pytest.mark.parametrize("name", ["trafilatura_eval-00912.html", "aeb-00177.html"])
def test_a_story_container_named_for_its_paywall_stays(name):
    # uebermedien.de (trafilatura_eval): the story is "entry__content steady-paywall-container",
    # 13 % of a page of long comments; barrons.com (aeb): the story's last eight paragraphs sit in
    # a div "paywall". Removed as paywall prompts, the body was the headline alone (uebermedien)
    # or the story's first two paragraphs (barrons).
    gold, result = _extract(name)
    if gold.get("with"):
        assert all(snippet in result.body for snippet in gold["with"])
        assert not any(snippet in result.body for snippet in gold["without"])
    else:
        last = gold["body"].strip().splitlines()[-1]
        assert last[:60] in result.body
        assert result.body.startswith(_first_line(gold["body"])[:60])


def test_the_story_s_other_rows_of_a_page_builder_join_it():
    # management-circle.de (trafilatura_eval): a WPBakery post, each paragraph group in its own
    # vc_row > wpb_column > ... > wpb_text_column; the walk chose one column, and the wanted
    # snippets, in the other rows, were all lost (one of them is now in, none unwanted).
    gold, result = _extract("trafilatura_eval-00269.html")
    tp, fn, fp, tn = snippet_counts(result.body, gold["with"], gold["without"])
    assert tp >= 1 and fp == 0


def test_a_page_builder_s_rows_numbered_otherwise_are_twins_of_the_region_s():
    # djz.de (tagDiv: ``vc_row tdi_3_118 wpb_row`` beside the region's ``vc_row tdi_11_47e
    # wpb_row``) and journelles.de (WPBakery: ``vc_custom_1670711767250``, ``vc_col-sm-9`` beside
    # ``vc_col-sm-8``), trafilatura_eval: the story's first rows differ from the region's only
    # in the builder's numbered class words and were not its cousins; each lost its first
    # wanted snippet ("einer Meldung von heute.", "Geschenke für die Liebsten aussuchen,").
    # The unwanted lines (an ad's "Anzeige, enthält Affiliate Links", the next story's teaser)
    # stay out (extractors.attenuation.COUSIN_NUMBERED_NAMES).
    gold, result = _extract("trafilatura_eval-00558.html")
    assert snippet_counts(result.body, gold["with"], gold["without"])[:3] == (
        len(gold["with"]), 0, 0)
    # the fixture's line keeps no snippets (a title and date fixture): the dataset's, written out
    _, result = _extract("trafilatura_eval-00801.html")
    for wanted in ("Geschenke für die Liebsten aussuchen,", "Buchstützen:",
                   "All diese schönen Produkte und"):
        assert wanted in result.body
    for unwanted in ("Tags:", "Anzeige, enthält Affiliate Links",
                     "Das ist Liebe in deinem Posteingang:"):
        assert unwanted not in result.body


def test_a_block_opened_by_a_rule_after_the_story_stays_out():
    # ascom.com (aeb): "About Ascom" after a press release is a block of the story's own class
    # ("text parbase"), opened by an <hr>; the gold leaves it out.
    gold, result = _extract("aeb-00058.html")
    assert "Ascom is a global solutions provider" not in result.body
    assert result.body.startswith(_first_line(gold["body"])[:40])


def test_image_captions_and_credits_are_left_out():
    # bbc.com (cx_bbc): every picture carries "Image copyright ..." and "Image caption ...";
    # the (silver) gold body has neither.
    gold, result = _extract("cx_bbc-00099.html")
    assert "Image caption" not in result.body and "Image copyright" not in result.body
    assert result.body.startswith(_first_line(gold["body"])[:60])


def test_the_page_body_is_kept_when_denoising_leaves_little_of_it():
    # irobot.com product pages of one template (wcxb_dev): against its sibling the LCS clusters
    # kept under a third of the page's own body; the page's own body is used and says why. (An
    # English page: the denoiser runs on it only when told to; by default it is not even tried.)
    gold = fixture("wcxb_dev-01094.html")
    sibling = page_bytes(fixture("wcxb_dev-01093.html"))
    result = extract(page_bytes(gold), url=gold.get("url"), sibling=sibling, use_sibling="always")
    alone = extract(page_bytes(gold), url=gold.get("url"))
    assert result.body == alone.body
    assert result.sibling == {"used": False, "reason": "denoising kept too little of the page's body"}
    default = extract(page_bytes(gold), url=gold.get("url"), sibling=sibling)
    assert default.body == alone.body and default.sibling == {"used": False, "reason": "not_cjk"}


def test_a_short_body_is_read_again_when_the_labels_took_the_story():
    # trafilatura_eval (Apache-2.0): chip.de's test report sits in a block its labels mark as
    # furniture, skateboardmsm.de's event text too; the body was the headline alone (71 and 173
    # characters). Read again with fewer labels, the story's snippets are in and the boilerplate
    # snippets stay out.
    for name in ("trafilatura_eval-00072.html", "trafilatura_eval-00060.html"):
        gold, result = _extract(name)
        assert all(snippet in result.body for snippet in gold["with"]), name
        assert sum(snippet in result.body for snippet in gold["without"]) <= 1, name


def test_ruby_readings_are_not_part_of_the_text():
    # trafilatura_eval (Apache-2.0): NHK's easy-Japanese news prints each kanji word's reading
    # in <rt> above it; kept, every annotated word was doubled ("子こども") and no snippet matched.
    gold, result = _extract("trafilatura_eval-00440.html")
    assert all(snippet in result.body for snippet in gold["with"])


def test_soft_hyphens_are_not_part_of_the_text():
    # trafilatura_eval (Apache-2.0): weinkenner.de hyphenates its words with U+00AD; kept, they
    # split the words of the text ("Mag\xadda\xadle\xadner") and no snippet matched.
    gold, result = _extract("trafilatura_eval-00648.html")
    assert "\xad" not in result.body
    assert all(snippet in result.body for snippet in gold["with"])


def test_the_lead_set_apart_above_the_body_is_part_of_the_story():
    # trafilatura_eval (Apache-2.0): pronats.de's lead sits in a "leader" block, deutschlandfunk's
    # in the article head's "subtitle", both outside the body's container; the body began at the
    # second paragraph and the lead's snippet was missed.
    for name in ("trafilatura_eval-00214.html", "trafilatura_eval-00230.html"):
        _assert_snippets(*_extract(name), name)


def test_a_teaser_named_lead_above_the_body_is_part_of_the_story():
    # trafilatura_eval (Apache-2.0): TYPO3's news detail sets the lead in a "teaser-text" block
    # beside the itemprop=articleBody container (mpimet.mpg.de), bmfsfj.de in a "p.article-teaser"
    # above its body; the body began at the second paragraph and the lead's snippet was missed
    for name in ("trafilatura_eval-00748.html", "trafilatura_eval-00654.html"):
        gold, result = _extract(name)
        assert all(snippet in result.body for snippet in gold["with"]), name


def test_a_lead_in_the_story_container_s_header_joins_however_deep_the_body_sits():
    # trafilatura_eval (Apache-2.0): propellets.at's "p.lead" and zfk.de's
    # "contentHeaderHeader__abstract" sit in the article's header, inside the marked story
    # container (an <article>) but five and six levels above the body's region, past
    # LEAD_MAX_LEVELS; the lead's snippet was missed ("Besonders für Haushalte...",
    # "Wärmepumpen boomen").
    for name in ("trafilatura_eval-00426.html", "trafilatura_eval-00728.html"):
        _assert_snippets(*_extract(name), name)


def test_the_story_under_the_headline_joins_up_to_the_story_container():
    # trafilatura_eval (Apache-2.0): link.springer.com's walk chose the references, five levels
    # below the <article> that holds the headline, the abstract and the sections (two of three
    # wanted snippets missed); management-circle.de's first paragraph sat in a page builder's
    # row above the region, past HEADLINE_LEAD_LEVELS.
    _assert_snippets(*_extract("trafilatura_eval-00431.html"), "link.springer.com")
    _, result = _extract("trafilatura_eval-00269.html")
    assert "In der Industrie wird der Remote Support mit Smart Glasses" in result.body


def test_a_lead_is_taken_only_above_the_region_and_near_it():
    page = parse_page(b"<html><body><div class='summary'>A summary of the site, far from the "
                      b"story and long enough to be a lead.</div><div><div><div><div><div>"
                      b"<div class='intro'>The lead of the story, set apart above its body "
                      b"by the template.</div><div class='body'><p>" + b"Story text. " * 40 +
                      b"</p><p>" + b"More story. " * 30 + b"</p></div></div></div></div></div>"
                      b"</div></body></html>")
    result = extract(page)
    assert result.body.startswith("The lead of the story")
    assert "A summary of the site" not in result.body


# trafilatura_eval (Apache-2.0): story parts beside the region FindMT chose, missed before.
@pytest.mark.parametrize("name, where", [
    ("trafilatura_eval-00170.html", "ejwue.de: the first paragraphs are siblings of the region's "
                                    "parent, not of the region (two of three snippets missed)"),
    ("trafilatura_eval-00272.html", "neos.eu: the story is set in several link-free blocks of one "
                                    "template, the region is one of them (a snippet missed)"),
])
def test_story_parts_beside_the_region_are_part_of_the_story(name: str, where: str):
    _assert_snippets(*_extract(name), where)


def test_a_caption_or_a_printed_url_beside_the_region_stays_out():
    page = parse_page(b"<html><body><div class='wrap'>"
                      b"<div class='teaser'>The harbour was closed for a week after the storm, and "
                      b"the fishing fleet stayed at its moorings while the wind blew.</div>"
                      b"<div class='photo-credit'>A photograph of the harbour at dawn, taken "
                      b"from the old pier by our staff photographer during the storm last week.</div>"
                      b"<div>https://news.example/a/very/long/path/to/the/story/of/the/harbour/at/"
                      b"dawn/and/the/storm.html</div>"
                      b"<div class='story'><p>" + b"The storm closed the harbour for a week. " * 8
                      + b"</p><p>" + b"Fishermen waited on the pier for the wind to drop. " * 6
                      + b"</p></div></div></body></html>")
    nodes = page.nodes
    region = next(r for r in range(len(nodes)) if nodes.classes[r] == "story")
    lead = next(r for r in range(len(nodes)) if nodes.classes[r] == "teaser")
    assert story_siblings(nodes, region) == [lead]  # the prose block before the region only


def test_a_consent_platforms_banner_is_furniture():
    # wcxb_dev (CC-BY-4.0): wired.com's category page carries the consent banner of a consent
    # platform (Fides: "We Care About Your Privacy ..."), named for the vendor, not for cookies or
    # consent; the walk chose it and the body was the banner alone.
    # (Typed list since the section-front address rule, the page's body is the list walk's over
    # the page read unlabelled, its labelled reading being short: what is checked here is the
    # labelled reading, the furniture mask's.)
    page = parse_page(page_bytes(fixture("wcxb_dev-00877.html")))
    content = furniture_mask(page.nodes, read_markup(page.nodes))
    banner = next(r for r in range(len(page.nodes))
                  if "We Care About Your Privacy" in (page.nodes.elements[r].text or ""))
    assert not content[banner]
    assert "We Care About Your Privacy" not in extract_main_text(page, content=content).text


def test_a_photo_carousels_captions_inside_the_story_are_not_body():
    # aeb (MIT): chron.com sets a photo carousel inside its article body; each photo's caption is
    # written four times over (full and truncated, in the slide and in the control panel,
    # ``div.caption``, ``p.wp-caption-text``-style names) with "Caption" / "Close" buttons; taken
    # as body they were a fifth of it (page F1 0.88).
    gold, result = _extract("aeb-00109.html")
    caption = "a long row of unsold E-Pace sports-utility vehicles"
    assert caption in result.page.root.text_content()  # the page has it; the body must not
    assert caption not in result.body and caption not in gold["body"]
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.95


def test_a_forum_topics_posts_are_its_body_though_named_as_comments():
    # wcxb_dev (CC-BY-4.0): an Invision forum topic (discussion.evernote.com) declares
    # DiscussionForumPosting; its posts sit in comment-named blocks (``ipsComment``), which are
    # furniture on an article, so the walk fell on the search menu (page F1 0).
    lines = (FIXTURES / "pagetype" / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    gold = next(g for g in map(json.loads, lines) if g["id"] == "0545")
    document = (FIXTURES / "pagetype" / gold["file"]).read_bytes()
    page = parse_page(document, url=gold["url"])
    assert is_thread(page)
    result = extract(page)
    assert "I don't like this new look" in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.85
    article = parse_page(page_bytes(fixture("aeb-00119.html")))  # givewell: a post, comments
    assert not is_thread(article)


def test_a_consent_panel_goes_whatever_its_share_of_the_page():
    # A preference panel longer than what is left of the page: still furniture (a "share" box
    # as large would be kept, as the story's wrapper named after a feature).
    panel = (b"<div id=onetrust-pc-sdk><p>" + b"These cookies help us measure traffic. " * 40
             + b"</p></div>")
    story = (b"<div class=story><p>" + b"The river rose overnight in the old town. " * 10
             + b"</p></div>")
    page = parse_page(b"<html><body>" + panel + story + b"</body></html>")
    keep = furniture_mask(page.nodes)
    panel_row = page.nodes.ident.index("onetrust-pc-sdk")
    story_row = page.nodes.classes.index("story")
    assert not keep[panel_row] and keep[story_row]
    assert "river rose" in extract(page).body and "cookies" not in extract(page).body


def test_a_block_headed_recommended_for_you_is_furniture_only_where_the_heading_opens_it():
    story = b"<div class=story><p>" + b"The river rose overnight in the old town. " * 12 + b"</p>"
    teasers = (b"<div class=mod><h2>Recommended for You</h2><ul>"
               + b"<li><a href=/a>Storm hits the coast</a><p>"
               + b"Winds of a hundred kilometres an hour tore roofs off. " * 2 + b"</p></li>" * 4
               + b"</ul></div>")
    page = parse_page(b"<html><body>" + story + b"</div>" + teasers + b"</body></html>")
    keep = furniture_mask(page.nodes)
    assert not keep[page.nodes.classes.index("mod")] and keep[page.nodes.classes.index("story")]
    # the same words closing a paragraph block of the story do not head it: nothing goes
    inside = parse_page(b"<html><body><div class=story><p>" + b"The river rose again. " * 12
                        + b"</p><h3>Most read</h3><p>" + b"Fishermen waited on the pier. " * 8
                        + b"</p></div></body></html>")
    assert furniture_mask(inside.nodes).all()


def test_paragraphs_the_page_hides_are_not_part_of_the_story():
    # readability_testpages (Apache-2.0): hidden-nodes sets paragraphs with display:none and the
    # hidden attribute among the visible ones (the same Lorem ipsum); kept as paragraphs of the
    # story, they tripled the body (page F1 0.48 against the gold).
    gold, result = _extract("readability_testpages-00042.html")
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.95
    assert len(result.body) < 1.2 * len(gold["body"])


def _assert_snippets(gold: dict, result, note: str) -> None:
    """Every ``with`` snippet of the gold is in the body, no ``without`` snippet is."""
    assert all(snippet in result.body for snippet in gold["with"]), note
    assert not any(snippet in result.body for snippet in gold["without"]), note


def test_the_walk_does_not_step_into_an_aside_or_a_footer_beside_the_story():
    # trafilatura_eval (Apache-2.0), pamelaandersonfoundation.org: the sidebar's archive list (a
    # date under each headline, so little of it in links) outweighs the post, and the walk chose
    # it; wcxb_dev (CC-BY-4.0), reventals.com: a site-map footer inside the header's nav held most
    # of the text, and the body was its list of cities (F1 0 before either case was handled).
    for name in ("trafilatura_eval-00143.html", "wcxb_dev-00189.html"):
        region = _extract(name)[1].region_path.split(".")
        assert "aside" not in region and "footer" not in region, name
    _assert_snippets(*_extract("trafilatura_eval-00143.html"), "pamelaandersonfoundation.org")
    gold, result = _extract("wcxb_dev-00189.html")
    assert "services the following cities and zip codes" not in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.7


def test_an_aside_that_holds_the_article_is_still_walked_into():
    story = b"<article><p>" + b"The council met on Tuesday to vote on the budget. " * 10 + b"</p>"
    page = parse_page(b"<html><body><aside class=layout>" + story + b"</article></aside>"
                      b"<footer><p>" + b"Contact us at our office in the town square. " * 3
                      + b"</p></footer></body></html>")
    assert page.nodes.tag[find_subject_region(page.nodes)] in ("article", "p")
    side = parse_page(b"<html><body><div class=post><p>" + b"A short post on the vote. " * 4
                      + b"</p></div><aside><ul>" + b"<li>March 2020 <a href=/m>The budget</a>"
                      b" was published on the third of March.</li>" * 12 + b"</ul></aside>"
                      b"</body></html>")
    region = find_subject_region(side.nodes)
    assert side.nodes.classes[region] == "post" or side.nodes.tag[region] == "p"


def test_a_line_that_opens_with_read_also_and_goes_on_in_a_link_is_furniture():
    # trafilatura_eval (Apache-2.0), elheraldo.hn: "LE PUEDE INTERESAR: <a>another story</a>"
    # set between the story's paragraphs was kept as one of them.
    gold, result = _extract("trafilatura_eval-00978.html")
    _assert_snippets(gold, result, "elheraldo.hn")
    line = b"<p><strong>Lesen Sie auch:</strong> <a href=/other>Der Hafen wird ausgebaut</a></p>"
    prose = (b"<p>Lesen Sie auch: the council's own report, which says the harbour will grow "
             b"by a third, and <a href=/r>its appendix</a>.</p>")
    story = b"<p>" + b"Der Rat tagte am Dienstag und beschloss den Haushalt. " * 8 + b"</p>"
    page = parse_page(b"<html><body><div>" + story + line + story + prose + b"</div></body></html>")
    text = extract_main_text(page, content=furniture_mask(page.nodes)).text
    assert "Der Hafen wird ausgebaut" not in text and "its appendix" in text


def test_a_short_label_with_its_colon_or_a_linked_label_line_is_furniture():
    # trafilatura_eval (Apache-2.0), 100noticias.com.ni: "Lea: <a>...</a>" and "Lea más:
    # <a>...</a>" between the paragraphs (two of the gold's "without" snippets); polityka.pl:
    # six "Czytaj też: <a>...</a>" lines. All were kept as paragraphs of the story.
    _assert_snippets(*_extract("trafilatura_eval-00958.html"), "100noticias.com.ni")
    for name, labels in (("trafilatura_eval-00958.html", ("Lea:", "Lea más:")),
                         ("trafilatura_eval-00490.html", ("Czytaj też:",))):
        gold, result = _extract(name)
        assert all(snippet in result.body for snippet in gold["with"]), name  # the story stays
        assert not any(line.startswith(labels) for line in result.body.splitlines()), name
    story = b"<p>" + b"The council met on Tuesday and passed the budget for next year. " * 8
    page = parse_page(
        b"<html><body><div>" + story + b"</p><p><a href=/o><strong>Related: The harbour will "
        b"grow by a third</strong></a></p>" + story + b"</p><p>Related: the harbour report, "
        b"which <a href=/r>the council published</a>, says it will grow.</p>" + story
        + b"</p><p><b>Mira: </b>the vote was close, <a href=/v>as the record shows</a>.</p>"
        b"</div></body></html>")
    text = extract_main_text(page, content=furniture_mask(page.nodes)).text
    assert "grow by a third" not in text  # a label and a headline, all of it one link
    assert "the council published" in text and "as the record shows" in text  # prose


def test_a_code_listing_keeps_its_comments_whatever_the_highlighter_names_them():
    # wcxb_dev (CC-BY-4.0), coryd.dev: a shell listing highlighted by highlight.js, every
    # comment line a <span class="hljs-comment">; the comment word took all 26 of them (F1 0.56).
    # (this fixture's gold body was dropped: the lines are checked against the page itself)
    result = _extract("wcxb_dev-00430.html")[1]
    for line in ("# initialize git\ngit init", "# clone repo", "# revert a previous commit"):
        assert line in page_bytes(fixture("wcxb_dev-00430.html")).decode().replace(
            '<span class="hljs-comment">', "").replace("</span>", ""), line
        assert line.split("\n")[0] in result.body, line
    story = b"<p>" + b"The build runs every night and its log is kept for a week. " * 6 + b"</p>"
    page = parse_page(b"<html><body><article>" + story + b"<pre><code><span class='token "
                      b"comment'># rebuild the index</span>\nmake index</code></pre>" + story
                      + b"<div class=comment-list><p>Nice post, thanks!</p></div></article>"
                      b"</body></html>")
    text = extract_main_text(page, content=furniture_mask(page.nodes)).text
    assert "# rebuild the index" in text and "Nice post" not in text


def test_a_declared_article_s_author_box_is_furniture_but_not_an_inline_name():
    # trafilatura_eval (Apache-2.0): cicero.de's "author-box" (the writer's portrait and role,
    # set beside the story) and knowtechie.com's "mvp-author-box-wrap" after it were kept in
    # the body (unwanted snippets "Moritz Gathmann leitet", "You can keep up with me on Twitter").
    _assert_snippets(*_extract("trafilatura_eval-00376.html"), "cicero.de")
    gold, result = _extract("trafilatura_eval-00061.html")
    assert "You can keep up with me on Twitter" in gold["without"]
    assert "You can keep up with me on Twitter" not in result.body
    assert sum(snippet in result.body for snippet in gold["with"]) >= 2  # the story stays
    story = b"<p>" + b"The kitchen of the fifties was built around the family's new machines. " * 6
    box = b"<div class=author-box><p>Jane Roe writes about design and lives in Ohio.</p></div>"
    inline = b"<p><span class=author>Sarah Archer</span> is the author of a book on kitchens.</p>"
    for declared, kept in ((b"article", False), (b"website", True)):
        page = parse_page(b"<html><head><meta property='og:type' content='" + declared + b"'>"
                          b"</head><body><article>" + story + b"</p>" + inline + story + b"</p>"
                          + box + b"</article></body></html>")
        text = extract(page).body
        assert ("Jane Roe writes" in text) is kept, declared  # the box: on articles only
        assert "Sarah Archer is the author" in text  # a name inside a sentence stays
def test_a_photo_credit_on_a_line_of_its_own_is_furniture():
    # trafilatura_eval (Apache-2.0): nationalgeographic.co.uk's "Photograph by ..." lines under
    # its pictures and golf.de's captions ending "| © Augusta National/Getty Images" were kept
    # (unwanted snippets of both golds).
    for name in ("trafilatura_eval-00288.html", "trafilatura_eval-00671.html"):
        _assert_snippets(*_extract(name), name)
    story = b"<p>" + b"The herd was moved off the island in the spring of that year. " * 6 + b"</p>"
    page = parse_page(b"<html><body><article>" + story + b"<figure><img src=g.jpg><div>"
                      b"<span>Foto: Jane Roe/dpa</span></div></figure>" + story + b"<p>The photo"
                      b" was taken by a ranger. Photo: the island's rangers kept the count.</p>"
                      + story + b"<p>Anna Smith/Getty Images</p></article></body></html>")
    text = extract_main_text(page, content=furniture_mask(page.nodes)).text
    assert "Jane Roe" not in text and "Getty" not in text
    assert "kept the count" in text  # a label inside a sentence is no credit line


#: A paragraph's opening and five sentences, for constructed pages around a line under test.
_FERRY_STORY = (b"<p>"
                + b"The ferry leaves the harbour every morning at six, weather permitting. " * 5)


def test_a_control_s_label_or_a_spacer_is_no_line_of_the_body():
    # wcxb_dev (CC-BY-4.0), watchuseek.com: a forum post's quote box ends with XenForo's
    # "Click to expand..." button, kept as a line of the thread.
    gold, result = _extract("wcxb_dev-00520.html")
    assert "Click to expand..." not in result.body.splitlines()
    assert "Click to expand" not in gold["body"] and len(result.body) > 1000
    story = _FERRY_STORY
    page = parse_page(b"<html><body><article>" + story + b"</p><p>&zwj;</p><div>Advertisement"
                      b"</div>" + story + b"</p><p>\xe2\x80\x8b</p><p>An advertisement for the "
                      b"ferry ran in May.</p></article></body></html>")
    lines = extract(page).body.splitlines()
    assert len(lines) == 3 and lines[2] == "An advertisement for the ferry ran in May."
    # wcxb_dev (CC-BY-4.0), serverfault.com: each answer's member card ("10.6k2 gold badges38
    # silver badges49 bronze badges") and the "Reset to default" sort control were lines of it
    gold, result = _extract("wcxb_dev-00555.html")
    assert "Reset to default" not in result.body and "bronze badges" not in result.body
    assert "answered May 2, 2009 at 0:09" in gold["body"] and "bronze" not in gold["body"]
    assert "answered May 2, 2009 at 0:09" in result.body


def test_an_ad_slot_s_short_label_is_no_line_of_the_body():
    # aeb (MIT), morebikes.co.uk: two ad slots between the review's paragraphs, each labelled
    # "Advert" (CNET's and CNNMoney's "ADVERTISING" in readability_testpages, alternativeto.net's
    # "Ad" in wcxb_dev): kept as lines of the body, in no gold.
    gold, result = _extract("aeb-00065.html")
    assert "Advert" not in result.body.splitlines() and "Advert" not in gold["body"]
    assert result.body.startswith(_first_line(gold["body"])[:40])
    story = _FERRY_STORY
    page = parse_page(b"<html><body><article>" + story + b"</p><div>ADVERTISING</div>" + story
                      + b"</p><div>Ad</div><p>Advertising paid for the new ferry in May.</p>"
                      b"</article></body></html>")
    lines = extract(page).body.splitlines()
    assert len(lines) == 3 and lines[2] == "Advertising paid for the new ferry in May."


def test_a_call_to_subscribe_at_the_body_s_end_is_left_out():
    # aeb (MIT), nj.com: the story ends on "Get the latest updates right in your inbox. Subscribe
    # to NJ.com's newsletters.", a paragraph of the story's container its gold leaves out (as
    # theparadigmng.com's "Click here to subscribe to The Paradigm Newsletter" on aeb, forbes.com's
    # on big9, nationnews.com's "Subscribe now to our eNATION edition" on trafilatura_eval);
    # extractors.SUBSCRIBE_CALL_LINES.
    gold, result = _extract("aeb-00044.html")
    call = "Subscribe to NJ.com"
    assert call not in gold["body"] and call not in result.body
    assert result.body.startswith(_first_line(gold["body"])[:40])
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.95
    # the story's own sentences on newsletters stay: one before the last lines, and a long one
    story = _FERRY_STORY
    long_line = (b"The newsletter of the ferry's owners, sent to 4 000 subscribers every week, "
                 b"printed the new timetable in May, with the fares of the summer season and "
                 b"the names of the crews.")
    page = parse_page(b"<html><body><article><p>The town's newsletter printed the timetable.</p>"
                      + story + b"</p>" + story + b"</p><p>" + long_line + b"</p><p>Subscribe "
                      b"to our newsletter for the latest news.</p></article></body></html>")
    lines = extract(page).body.splitlines()
    assert lines[0] == "The town's newsletter printed the timetable."
    assert lines[-1] == long_line.decode() and len(lines) == 4


def test_a_heading_that_ends_the_body_over_text_left_out_goes():
    # aeb (MIT), telegraph.co.uk's Tennis Podcast page: the story ends on an h4, "How to listen
    # to The Tennis Podcast", over a paragraph of links ("Listen: http://po.st/...") CleanTree
    # prunes; alone it was the body's last line, a label over nothing (its gold leaves it out, as
    # cx_bbc's leaves out a photo essay's last crosshead); extractors.TRAILING_HEADINGS.
    gold, result = _extract("aeb-00097.html")
    label = "How to listen to The Tennis Podcast"
    assert label not in gold["body"] and label not in result.body
    assert result.body.splitlines()[-1].startswith("This week's Tennis Podcast is sponsored")
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.99
    # a heading over a list of links the body prunes goes; one that ends the story as written
    # (nothing after it in the region) stays
    story = _FERRY_STORY + b"</p>" + _FERRY_STORY + b"</p>"
    links = b"<ul>" + b"".join(b'<li><a href="/s%d">Another story %d</a></li>' % (k, k)
                               for k in range(4)) + b"</ul>"
    page = parse_page(b"<html><body><article>" + story + b"<h2>The harbour in pictures</h2>" + links
                      + b"</article></body></html>")
    assert extract(page).body.splitlines()[-1].startswith("The ferry leaves")
    page = parse_page(b"<html><body><article>" + story + b"<h2>The end</h2></article>"
                      b"</body></html>")
    assert extract(page).body.splitlines()[-1] == "The end"


def test_a_call_in_another_language_or_a_share_button_s_label_at_the_end_is_left_out():
    # trafilatura_eval (Apache-2.0): wsieciprawdy.pl's story ends on "Zapraszamy też do
    # subskrypcji tygodnika ..." (a call to subscribe in Polish), fisch-hitparade.de's on its
    # share button's "Jetzt teilen!"; both among the gold's unwanted snippets.
    # extractors._SUBSCRIBE_CALL, extractors._SHARE_CALL.
    for name, call in (("trafilatura_eval-00498.html", "Zapraszamy też do subskrypcji"),
                       ("trafilatura_eval-00631.html", "Jetzt teilen!")):
        gold, result = _extract(name)
        assert call in gold["without"] and call not in result.body
        assert all(snippet in result.body for snippet in gold["with"])
    # a sentence of the story on sharing, longer than a button's label, stays
    story = _FERRY_STORY
    page = parse_page(b"<html><body><article>" + story + b"</p>" + story + b"</p><p>The crews "
                      b"will share the new timetable in May.</p><p>Share</p><p>Drukuj</p>"
                      b"</article></body></html>")
    lines = extract(page).body.splitlines()
    assert lines[-1] == "The crews will share the new timetable in May." and len(lines) == 3


def test_a_second_copy_of_the_story_in_the_markup_is_left_out():
    # wcxb_dev (CC-BY-4.0), loona-construction.com: the article is in the markup twice (one copy
    # for small screens, hidden by the style sheet) and the body held it twice (F1 0.49 before).
    gold, result = _extract("wcxb_dev-00350.html")
    line = "How Do Remodeling Costs in California Compare to Other States?"
    assert gold["body"].count(line) == 1 and result.body.count(line) == 1
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.9
    # the same short text under each item stays (the items' own text); a long run told twice not
    paragraphs = b"".join(b"<p>" + b"Crew %d serves the county with same-day repairs. " % k * 9
                          + b"</p>" for k in range(6))
    item = b"<h2>Coupon</h2><p>Not valid with other offers, some restrictions may apply.</p>"
    body = extract(b"<html><body><article><div>" + paragraphs + b"</div>" + item * 4
                   + b"<div>" + paragraphs + b"</div></article></body></html>").body
    assert body.count("restrictions may apply") == 4 and body.count("Crew 5 serves") == 9


def test_the_comments_under_a_question_s_answers_are_not_its_text():
    # wcxb_dev (CC-BY-4.0), serverfault.com: a QAPage whose comments under each answer (microdata
    # itemprop="comment") came with the answers (precision 0.46); the gold has the answers only
    gold, result = _extract("wcxb_dev-00555.html")
    comment = "Reasonable backup strategies include keeping a history"
    answer = "RAID guards against one kind of hardware failure."
    assert comment not in gold["body"] and comment not in result.body
    assert answer in gold["body"] and answer in result.body
    # a forum's replies carry the same property and stay
    post = b"<p>" + b"I replaced the chain and the gears still skip on the climb. " * 5 + b"</p>"
    reply = b"<div itemprop=comment itemscope itemtype=https://schema.org/Comment><p>" + (
        b"Check the cassette for wear before anything else, it skips the same way. " * 3)
    for page_type, kept in ((b"DiscussionForumPosting", True), (b"QAPage", False)):
        html = (b"<html itemscope itemtype=https://schema.org/" + page_type + b"><body><main>"
                + post + reply + b"</p></div></main></body></html>")
        assert ("Check the cassette" in extract(html).body) is kept, page_type


def test_a_forum_topic_known_by_its_address_keeps_its_opening_post():
    # wcxb_dev (CC-BY-4.0), tripadvisor.com's ShowTopic page declares no schema.org type; its
    # opening post sits in a comment-named container of the replies and was left out (F1 0.01)
    gold, result = _extract("wcxb_dev-01009.html")
    opening = "I did lots and lots of research before visiting Japan"
    assert opening in gold["body"] and opening in result.body
    assert result.page_type == "other"
    assert is_thread(parse_page(b"<p>Hi</p>", url="https://forum.example.org/viewtopic.php?t=3"))
    assert not is_thread(parse_page(b"<p>Hi</p>", url="https://example.org/topic/health/"))


def test_a_recipe_s_ingredient_box_beside_the_preparation_joins_the_body():
    # trafilatura_eval (Apache-2.0), chefkoch.de: the ingredients are a table in an <article
    # class="... recipe-ingredients"> beside the preparation's; the walk took the preparation
    # only (wanted snippets "Für den Mürbeteig:", "Margarine oder Butter" missed).
    gold, result = _extract("trafilatura_eval-00326.html")
    for snippet in ("Für den Mürbeteig:", "Margarine oder Butter", "Für eine 26er Springform."):
        assert snippet in gold["with"] and snippet in result.body, snippet
    steps = b"<p>" + b"Stir the flour into the butter, then rest the dough for an hour. " * 6
    for name, joined in ((b"ingredients", True), (b"related-recipes", False)):
        page = parse_page(b"<html><body><div><div class=" + name + b"><ul><li>250 g flour</li>"
                          b"<li>100 g butter</li></ul></div><div class=steps>" + steps + b"</p>"
                          b"</div></div><footer><p>" + b"Our shop sells flour. " * 30
                          + b"</p></footer></body></html>")
        assert ("250 g flour" in extract_main_text(page).text) is joined, name


def test_a_product_page_s_customer_reviews_are_furniture_but_not_an_article_s():
    # wcxb_dev (CC-BY-4.0), rei.com: a pack's page (JSON-LD Product) whose reviews, 60 % of its
    # text, were the body; the gold is the description and the features (F1 0 -> 0.96).
    gold, result = _extract("wcxb_dev-00613.html")
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.9
    assert "people found this review helpful" not in result.body
    text = b"<p>" + b"This pack carries a day's gear and fits most backs and frames. " * 4
    review = (b"<div class=reviews><p>" + b"Great pack, I took it up three peaks this summer. " * 6
              + b"</p></div>")
    for kind, kept in ((b"Product", False), (b"NewsArticle", True)):
        page = parse_page(b'<html><head><script type="application/ld+json">{"@type": "' + kind
                          + b'"}</script></head><body><main>' + text + b"</p>" + review
                          + b"</main></body></html>")
        assert ("three peaks" in extract(page).body) is kept, kind


def test_a_block_of_the_story_s_own_class_joins_it_though_it_holds_a_link():
    # wcxb_dev (CC-BY-4.0), dreambigtravelfarblog.com: the introduction is a block of the same
    # class as the region the walk chose, with one link in its sentences; link-free blocks only,
    # it was left out.
    gold, result = _extract("wcxb_dev-00327.html")
    intro = "Whether you're embarking on a full cross-country road trip"
    assert intro in gold["body"] and intro in result.body
    # another class with the same share of links stays out
    text = b"The ferry leaves the harbour every morning at six, weather permitting. " * 3
    linked = b" See <a href=/t>the timetable</a>."
    page = parse_page(b"<html><body><div><div class=part><p>" + text * 2 + b"</p></div>"
                      b"<div class=promo><p>" + text + linked + b"</p></div><div class=part><p>"
                      + text + linked + b"</p></div></div></body></html>")
    region = page.nodes.classes.index("part")
    joined = {page.nodes.classes[row] for row in story_siblings(page.nodes, region)}
    assert joined == {"part"}


def _list_records_fixture(name: str):
    """A page of the quality gate's list_records set (tests/fixtures/eval/list_records) and its
    gold line: the same wcxb_dev page is not copied twice into the fixtures."""
    folder = FIXTURES / "eval" / "list_records"
    with open(folder / "gold.jsonl", encoding="utf-8") as fh:
        gold = next(g for g in map(json.loads, fh) if g["file"] == f"pages/{name}")
    gold = dict(gold, file=f"eval/list_records/pages/{name}")
    return gold, extract(page_bytes(gold), url=gold["url"])


@pytest.mark.parametrize("name", ["wcxb_dev-00846.html", "list_records:00010.html"])
def test_a_list_page_s_body_is_its_list(name):
    # wcxb_dev (CC-BY-4.0): news.ycombinator.com/jobs and hospitalitynet.org's latest news (a
    # page of the gate's list_records set), list pages whose gold body is the list's headlines
    # and teasers. The article walk weighs non-link text only: it found a stray line (0.01 F1)
    # or nothing at all (0.00).
    if name.startswith("list_records:"):
        gold, result = _list_records_fixture(name.split(":", 1)[1])
    else:
        gold, result = _extract(name)
    assert result.page_type == "list"
    page = parse_page(page_bytes(gold), url=gold["url"])
    article_walk = extract_main_text(page, content=furniture_mask(page.nodes, read_markup(page.nodes)))
    listed = page_f1(shingle_match(gold["body"], result.body))
    assert listed > 0.5 and listed > page_f1(shingle_match(gold["body"], article_walk.text)) + 0.3
    found, _, unwanted, _ = snippet_counts(result.body, gold["with"], gold["without"])
    assert found >= 1 and unwanted == 0  # the site's menu and footer links stay out


def test_a_list_page_s_sort_form_is_not_its_list():
    # wcxb_dev (CC-BY-4.0): thedashcamstore.com's 4K dash cam category (a held-out site). The
    # list region held the category's description, then the shop's sort and compare form
    # ("Sort By:", "Choose Options" on every card): the gold keeps the description only (page
    # F1 0.47 with the form's text).
    gold, result = _extract("wcxb_dev-01139.html")
    assert result.page_type == "list"
    assert "Sort By" not in result.body and "Choose Options" not in result.body
    assert result.body.startswith("Here we have a collection of the newest 4K dash cams")
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.9


def test_a_list_page_s_screen_reader_labels_and_filters_are_not_its_list():
    # wcxb_dev (CC-BY-4.0): IMDb's "most popular movies" chart (a held-out site). Its list region
    # held the chart's filter and sort controls and a screen-reader label on every entry; and the
    # year and running time, sibling spans with nothing between them, read "20261h 54m" (page F1
    # 0.41).
    gold, result = _extract("wcxb_dev-00842.html")
    assert result.page_type == "list"
    assert "2026 1h 54m" in result.body and "20261h" not in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.9


def test_a_list_page_s_brand_and_product_name_stay_two_words():
    # wcxb_dev (CC-BY-4.0): rei.com's headlamps. Each card sets the brand and the product name in
    # sibling spans, "<span>Black Diamond</span><span>Spot 400 Headlamp</span>", which the site's
    # style sheet puts on lines of their own; read as one line they made "DiamondSpot".
    gold, result = _extract("wcxb_dev-00913.html")
    assert result.page_type == "list"
    assert "Black Diamond Spot 400 Headlamp" in result.body and "DiamondSpot" not in result.body
    assert "Black Diamond Spot 400 Headlamp" in gold["body"]


def test_case_joins_space_lower_into_upper_and_digit_into_digit_between_elements():
    # (an element's first letter set apart, "<b>W</b>ord", keeps its word; "Mc<b>Donald</b>" is
    # split: the rule's cost, measured in LIST_CASE_JOINS)
    page = parse_page(b"<html><body><div><p><span>Black Diamond</span><span>Spot 400</span> "
                      b"<b>W</b>ord, <i>2026</i><i>1h 54m</i>, Mc<b>Donald</b></p></div>"
                      b"</body></html>")
    keep = np.ones(len(page.nodes), dtype=bool)
    assert region_text(page.nodes, keep) == "Black DiamondSpot 400 Word, 20261h 54m, McDonald"
    assert (region_text(page.nodes, keep, case_joins=True)
            == "Black Diamond Spot 400 Word, 2026 1h 54m, Mc Donald")


def test_a_line_whose_first_segment_is_left_out_is_still_a_line():
    page = parse_page(b"<html><body><div><p>First line.</p><p><span class=x>Reviews:</span>196"
                      b"</p></div></body></html>")
    keep = np.ones(len(page.nodes), dtype=bool)
    keep[page.nodes.classes.index("x")] = False
    assert region_text(page.nodes, keep) == "First line.\n196"


def test_a_dateline_at_the_body_s_head_is_left_out():
    # trafilatura_eval (Apache-2.0), mdavis.xyz: "11 Jan 2019" on a line of its own under the
    # standfirst, one of the snippets the gold wants out.
    gold, result = _extract("trafilatura_eval-00444.html")
    assert "11 Jan 2019" in gold["without"] and "11 Jan 2019" not in result.body
    head = result.body.split("\n")[:8]
    assert any("Stallman-esque short story" in line for line in head)  # the standfirst stays
    found, missed, _, _ = snippet_counts(result.body, gold["with"], [])
    assert missed == 0
    # a date inside a sentence, or past the head, stays
    page = b"<html><body><article><p>11 Jan 2019</p>" + b"".join(
        b"<p>Paragraph %d of the story, long enough to be read as prose by the walk.</p>" % k
        for k in range(8)) + b"<p>12 Feb 2019</p></article></body></html>"
    body = extract(page).body
    assert "11 Jan 2019" not in body and body.endswith("12 Feb 2019")


def test_the_walk_passes_by_a_footer_wrapped_in_a_block_of_its_own():
    # wcxb_dev (CC-BY-4.0): goshopia.com's product page (an Elementor theme) wraps its footer in
    # ``div.page-footer-wrapper > div.page-footer > footer``; the footer's sections (written
    # twice, for phones and desktops: reviews, shop links, contact) hold 8 000 of the page's
    # 9 400 non-link characters, so the walk stepped into the wrapper, where the landmark was
    # the only child, and the body was the footer's reviews (page F1 0).
    gold, result = _extract("wcxb_dev-00586.html")
    assert "What Our Clients say" not in result.body
    assert "symbolizes creativity" in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.5


def test_a_block_whose_text_is_all_in_a_footer_weighs_nothing_in_the_walk():
    story = b"<div class=story><p>" + b"The river rose overnight in the old town. " * 8 + b"</p></div>"
    footer = (b"<div class=wrap><div><footer><p>" + b"Returns are accepted within thirty days. "
              * 40 + b"</p><p>" + b"Privacy matters to us. " * 40 + b"</p></footer></div></div>")
    page = parse_page(b"<html><body>" + story + footer + b"</body></html>")
    region = find_subject_region(page.nodes)
    assert page.nodes.classes[region] == "story" or page.nodes.tag[region] == "p"
    assert extract(page).body.startswith("The river rose overnight")


def test_a_list_pages_walk_starts_at_the_body_not_at_a_story_container():
    # wcxb_dev (CC-BY-4.0): dev.to's front page, typed list; its posts are cards, and the story
    # container read on the page was a card's block, so the list walk started inside it and the
    # body was 235 characters of two teasers (page F1 0).
    gold, result = _extract("wcxb_dev-00903.html")
    assert result.page_type == "list"
    found = [s for s in gold["with"] if s in result.body]
    assert len(found) >= 3, found
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.4


def test_a_discussions_walk_starts_at_the_body_not_at_its_longest_post():
    # wcxb_dev (CC-BY-4.0): a XenForo topic on watchuseek.com (a held-out site) declares
    # DiscussionForumPosting; each post is an <article>, and the story container was the longest
    # one (Cosmodromedary's list of predictions), so the walk from there left every other reply
    # out (page F1 0.53).
    gold, result = _extract("wcxb_dev-00520.html")
    assert result.page_type == "other" and is_thread(result.page)
    for reply in ("I'm predicting a continuation", "In-house movements",
                  "Rolex Daytona and AP Royal Oak"):
        assert reply in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.8


def test_a_page_without_body_text_is_read_by_its_description():
    # wcxb_dev (CC-BY-4.0): a Discourse topic (forum.esk8.news) served as the shell clients
    # without JavaScript get: no post in the markup, the first post's opening in its meta
    # description; the body was empty.
    from extractors import DESCRIBED_ONLY

    gold, result = _extract("wcxb_dev-01138.html")
    assert result.reason == DESCRIBED_ONLY
    assert result.body.startswith("So I wanted to know what real world miles people are getting")
    assert result.body == " ".join(result.fields.description.split())
    assert page_f1(shingle_match(gold["body"], result.body)) > 0
    # a page with text keeps its walk's body, whatever its description says
    page = parse_page(b"<html><head><meta name=description content='A summary.'></head><body>"
                      b"<p>" + b"The river rose overnight in the old town. " * 5 + b"</p></body>"
                      b"</html>")
    assert extract(page).body.startswith("The river rose overnight")


def test_a_block_a_heading_names_as_other_stories_goes_whatever_its_share():
    # mensagensreflexao.com.br (aeb): a one-paragraph post, then "Você pode gostar..." opening
    # five teasers of other posts that hold most of the page's text; the walk chose the teasers
    # (F1 0) while the heading's block, as weak furniture, was kept for its share.
    gold, result = _extract("aeb-00125.html")
    assert result.body.startswith(_first_line(gold["body"])[:60])
    assert "A vida requer da gente otimismo" not in result.body
    page = parse_page(page_bytes(fixture("aeb-00125.html")))
    keep = furniture_mask(page.nodes)
    teaser = next(row for row, cls in enumerate(page.nodes.classes) if "postbox" in cls)
    assert not keep[teaser]


def test_a_story_column_named_as_a_sidebar_is_kept_for_its_paragraphs():
    # modernfarmer.com (wcxb_dev): the story's column is "sidebar-content" beside the theme's
    # sidebar; as weak furniture under half the page's text it went, and the walk took a hidden
    # "republish this story" notice alone (F1 0). Its own paragraphs keep it (the notice, guarded
    # by the copy of the headline it holds, still comes with the sidebar: see test_attenuation).
    gold, result = _extract("wcxb_dev-00324.html")
    counts = shingle_match(gold["body"], result.body)
    assert counts[2] < 0.05  # almost no gold shingle missed (recall was 0)
    page = parse_page(page_bytes(fixture("wcxb_dev-00324.html")))
    column = page.nodes.classes.index("sidebar-content")
    assert furniture_mask(page.nodes)[column]


def test_a_section_id_that_is_its_heading_s_slug_names_no_furniture():
    # Mercurial's evolve guide (readability_testpages): docutils sections with ids such as
    # "sharing-with-a-single-developer"; the strong word "share*" took three of the four
    # sections (recall 0.14).
    gold, result = _extract("readability_testpages-00065.html")
    page = parse_page(page_bytes(gold))
    section = page.nodes.ident.index("sharing-with-a-single-developer")
    assert furniture_mask(page.nodes)[section]
    tp, fp, fn = shingle_match(gold["body"], result.body)
    assert tp / (tp + fn) > 0.9


def test_a_heading_wrapped_alone_in_its_header_opens_the_block_around_it():
    # yahoo.com (readability_testpages): "Recommended for You" is an <h2> alone in two header
    # divs of the stream applet; the block it opened was the header only, and the walk took the
    # stream (video player labels, other stories) before the story (F1 0.25).
    gold, result = _extract("readability_testpages-00127.html")
    assert result.body.startswith("A photographer and Navy veteran is fighting back")
    assert "Share Your Recipe" not in result.body and "Video Quality" not in result.body
    page = parse_page(page_bytes(gold))
    applet = next(row for row, element in enumerate(page.nodes.elements)
                  if element.get("data-applet-type") == "td-applet-stream")
    assert not furniture_mask(page.nodes)[applet]


def test_links_after_a_label_alone_in_its_element_go():
    # Substack (wcxb_dev, techworld-with-milan): "Read more" alone in a div, then a line of
    # links to another post ("10 months ago · 154 likes · 10 comments · author").
    gold, result = _extract("wcxb_dev-00764.html")
    assert "154 likes" not in result.body and "241 likes" not in result.body
    tp, fp, fn = shingle_match(gold["body"], result.body)
    assert tp / (tp + fn) > 0.95  # the essays themselves stay
    # zdnet.com (aeb): "<p><strong>Also: </strong><a>See Black Friday coverage at CNET</a></p>"
    # between the paragraphs is a link to another story, not text of this one.
    gold, result = _extract("aeb-00064.html")
    assert "See Black Friday coverage" not in result.body
    assert result.body.startswith(_first_line(gold["body"])[:60])


def test_noembed_content_is_not_text():
    # buzzfeed.com (readability_testpages): a <noembed> holding a Pinterest button's template;
    # libxml2 reads its content as raw text, which then stood in the node table as words
    # ("#{img_n_width}x#{img_n_height}").
    page = parse_page(page_bytes(fixture("readability_testpages-00018.html")))
    assert "#{img" not in "".join(page.nodes.seg_text)
    assert "noembed" not in page.nodes.tag


def test_a_formula_s_text_is_kept_and_its_tex_source_is_not():
    # readability_testpages' MathJax page: the MathML formulas were removed with the other
    # noise tags, leaving "When , there are two solutions to and they are" (F1 0.32).
    gold, result = _extract("readability_testpages-00060.html")
    assert "a ≠ 0 , there are two solutions to a x 2 + b x + c = 0" in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.9
    # Wikipedia (readability_testpages, wikipedia-3): each formula carries its TeX source in an
    # <annotation>, which is not text of the page.
    page = parse_page(page_bytes(fixture("readability_testpages-00121.html")))
    assert "math" in page.nodes.tag
    assert "displaystyle" not in "".join(page.nodes.seg_text)


def test_short_link_free_paragraphs_beside_a_paragraph_region_join_it():
    # hearya.com (trafilatura_eval): the walk stepped into one 1,628-character paragraph (a
    # hundred singers' names set in one p); the post's short paragraphs beside it ("Keith Caputo,
    # Life of Agony", 27 characters) stayed out under SIBLING_MIN_CHARS, and a wanted snippet
    # with them. The tweet button and the comment form beside them stay out.
    gold, result = _extract("trafilatura_eval-00255.html")
    assert snippet_counts(result.body, gold["with"], gold["without"]) == (
        len(gold["with"]), 0, 0, len(gold["without"]))
    assert "Phil Anselmo, Pantera" in result.body
    assert "Tweet" not in result.body.splitlines()


def test_an_article_s_link_only_edge_lines_are_left_out():
    # dtb-tennis.de (trafilatura_eval): the story's region ends with two links to other stories
    # ("Kohlmann: „Als nächstes gewinnen wir den Davis Cup“", each its own line); on a page
    # typed article they go, the story's last paragraph stays.
    gold, result = _extract("trafilatura_eval-00695.html")
    assert result.page_type == "article"
    assert snippet_counts(result.body, gold["with"], gold["without"]) == (
        len(gold["with"]), 0, 0, len(gold["without"]))
    assert "Bei einer Niederlage würde man in den sogenannten Playoffs" in result.body


def test_an_article_s_edge_lines_mostly_in_links_are_left_out():
    # reuters.com (trafilatura_eval): the story ends "Our Standards: The Thomson Reuters Trust
    # Principles." with all but the label in a link, a wanted-out snippet; remember8090.it
    # (aeb): "(Leggi anche su: <a>I Cavalieri dello Zodiaco: ...</a>)" ends the story, outside
    # the gold. Each line is 70 % or more link text (extractors.attenuation.EDGE_LINK_SHARE):
    # it goes with the link-only edge lines, the story's last paragraph stays.
    gold, result = _extract("trafilatura_eval-00287.html")
    assert snippet_counts(result.body, gold["with"], gold["without"]) == (
        len(gold["with"]), 0, 0, len(gold["without"]))
    assert "Trust Principles" not in result.body
    gold, result = _extract("aeb-00127.html")
    assert "Leggi anche su" not in result.body
    assert result.body.rstrip().endswith(gold["body"].rstrip()[-40:])  # the story's last line
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.95


def test_the_story_s_paragraphs_between_its_headline_and_the_region_join_it():
    # blog.mondediplo.net (trafilatura_eval): the walk chose the readers' comments (ul.forum,
    # longer than the post); the post's own paragraphs, between its h1 and that list, were
    # lost, and two of the three wanted snippets with them. They now come first.
    gold, result = _extract("trafilatura_eval-00383.html")
    tp, fn, fp, tn = snippet_counts(result.body, gold["with"], gold["without"])
    assert (tp, fn) == (len(gold["with"]), 0)
    assert result.body.startswith("L’un des écrivains sud-coréens les plus célèbres")


def test_a_lead_set_apart_from_the_headline_s_block_joins_the_story():
    # standard.co.uk (trafilatura_eval): the lead paragraph ("Penalties for those who refuse to
    # self-isolate are to be increased ...") sits under the headline's block, outside the
    # story's div that the walk chose; it was lost with a wanted snippet. A dek set beside the
    # h1 in the headline's own block stays out (aeb's gold leaves it out).
    gold, result = _extract("trafilatura_eval-00480.html")
    assert snippet_counts(result.body, gold["with"], gold["without"]) == (
        len(gold["with"]), 0, 0, len(gold["without"]))
    assert result.body.startswith("Penalties for those who refuse to self-isolate")
    page = parse_page(b"<html><body><article><header><h1>Storm hits the coast</h1><p>" + b"The "
                      b"storm that hit the coast overnight left thousands without power. " * 2
                      + b"</p></header><div>" + b"<p>" + b"Crews worked through the night to "
                      b"restore the lines along the bay. " * 6 + b"</p>" * 3 + b"</div></article>"
                      b"</body></html>")
    assert "left thousands without power" not in extract(page).body


def test_an_article_ends_before_a_comment_section_s_heading():
    # breakingbelizenews.com (trafilatura_eval): the story's region ended with "Comments", then
    # the site's advertising and copyright notes (four unwanted snippets); the body now ends
    # with the story's last paragraph.
    gold, result = _extract("trafilatura_eval-00955.html")
    assert snippet_counts(result.body, gold["with"], gold["without"]) == (
        len(gold["with"]), 0, 0, len(gold["without"]))
    assert result.body.endswith("to save lives.”")


def test_a_german_related_topics_heading_opens_furniture():
    # fluessiggas.de (trafilatura_eval): "Verwandte Themenbereiche" and its links followed the
    # story inside its region; the heading names them as other pages', and they go.
    gold, result = _extract("trafilatura_eval-00754.html")
    assert snippet_counts(result.body, gold["with"], gold["without"]) == (
        len(gold["with"]), 0, 0, len(gold["without"]))


def test_a_custom_element_is_named_by_its_tag():
    # bmas.de (trafilatura_eval): the site's menu is a <pp-header><pp-navigation> with no id or
    # class; unnamed, its 13 000 characters of links were taken for the press release (0 of 3
    # wanted snippets). The tag's words name it as a class would.
    gold, result = _extract("trafilatura_eval-00653.html")
    tp, fn, fp, tn = snippet_counts(result.body, gold["with"], gold["without"])
    assert (tp, fn) == (len(gold["with"]), 0)
    assert "Übersicht: Arbeitsförderung" not in result.body
    assert result.body.startswith("Mit der am 15. Januar 2022 in Kraft getretenen Verordnung")


def test_a_block_the_page_hides_goes_whatever_its_share():
    # readability_testpages' visibility-hidden page: a div styled "visibility: hidden" holds
    # three of the six paragraphs, half the page's text (over MAX_WEAK_SHARE, so it stayed):
    # a reader never sees it.
    gold, result = _extract("readability_testpages-00114.html")
    assert "Lorem ipsum dolor sit amet" not in result.body
    assert result.body.startswith("Tempor incididunt ut labore")
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.95


def test_a_news_story_s_photo_gallery_is_furniture():
    # chron.com (aeb, MIT): a Hearst story that declares itself a NewsArticle carries an
    # "asset_gallery" overlay whose title and "Back to Gallery" button came first in the body.
    gold, result = _extract("aeb-00109.html")
    assert "Back to Gallery" not in result.body
    assert result.body.startswith("New vehicle sales in the Houston area plunged 10 percent")
    # the same gallery on a page that does not say it is an article (a product page, a
    # picture story) may be its content: it stays
    page = b"<html><body><div class='gallery'>" + b"<p>A red kettle with a steel spout and a " \
        b"wooden handle.</p>" * 4 + b"</div><div>" + b"<p>The kettle boils a litre of water in " \
        b"under three minutes.</p>" * 6 + b"</div></body></html>"
    assert "red kettle" in extract(page).body
    assert "red kettle" not in extract(page.replace(
        b"<html>", b'<html><head><meta property="og:type" content="article"></head>')).body


def test_a_dialog_the_page_opens_over_itself_is_furniture():
    # france.attac.org (trafilatura_eval): the newsletter sign-up dialog ("Je m'informe",
    # "Recevoir les informations d'Attac France ...") was the walk's region, and the story none
    # of it (0 of 3 wanted snippets).
    gold, result = _extract("trafilatura_eval-00607.html")
    assert snippet_counts(result.body, gold["with"], gold["without"]) == (
        len(gold["with"]), 0, 0, len(gold["without"]))
    assert result.body.startswith("« Les privatisations sont au profit d’intérêts privés")
    # cloudflare.com/waf (wcxb_dev, CC-BY-4.0): a "Talk to an expert" contact form in a
    # <dialog> named "...-modal" sat inside the page's main region, its 3 800 characters of
    # form labels read as body text.
    gold, result = _extract("wcxb_dev-00794.html")
    assert "Talk to an expert" not in result.body
    assert "First name:" not in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.7


def test_a_small_dialog_stays():
    # a dialog of a few words (a price explanation behind an "i" icon) cannot be mistaken for
    # the body: it stays (MIN_DIALOG_CHARS); one with as much text as a story goes
    def dialog_kept(words: int) -> bool:
        page = parse_page(b"<html><body><div><p>" + b"Our shoes for rent this season. " * 30 +
                          b"</p></div><div class='modal'><p>" + b"The price applies. " * words +
                          b"</p></div></body></html>")
        return bool(furniture_mask(page.nodes)[page.nodes.classes.index("modal")])
    assert dialog_kept(5)
    assert not dialog_kept(40)


def test_a_dialog_element_is_furniture():
    # investor.vanguard.com (wcxb_dev, CC-BY-4.0): each term of the page opens a <dialog> with
    # its glossary definition ("Stock: A security that represents part ownership ..."); they
    # were read as body text between the page's paragraphs.
    gold, result = _extract("wcxb_dev-01273.html")
    assert "A security that represents part ownership" not in result.body
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.8


def test_a_gallery_longer_than_the_story_is_furniture():
    # independent.co.uk (readability_testpages, bug-1255978): a 50-picture gallery set inside
    # the story's text holds 78 % of the page's text; the walk chose its captions ("1/50 United
    # goin down ...") and the story's first half was lost (F1 0.03).
    gold, result = _extract("readability_testpages-00017.html")
    assert "United goin down" not in result.body
    assert "Most people go to hotels for the pleasure of sleeping" in result.body[:200]
    assert page_f1(shingle_match(gold["body"], result.body)) > 0.8


def test_a_script_link_wrapping_paragraphs_is_text():
    # readability_testpages' js-link-replacement page: the whole text sits in paragraphs inside
    # <a href="javascript:">; as link text it was all removed (an empty body). A script link
    # without paragraphs stays a link.
    gold, result = _extract("readability_testpages-00047.html")
    assert page_f1(shingle_match(gold["body"], result.body)) == 1.0
    page = parse_page(b"<html><body><div><p>" + b"The flood reached the town square. " * 8 +
                      b"</p></div><div><a href='javascript:mail()'>E-mail story</a> "
                      b"<a href='javascript:print()'>Print this story</a></div></body></html>")
    assert page.nodes.link_text[0] == len("E-mail story") + len("Print this story")


def test_the_pages_banner_header_is_weak_furniture_and_an_articles_header_is_not():
    """A ``header`` outside every sectioning element is the page's banner (its implicit role,
    as ``role=banner``): aeb-00064's ``header#mainHeader``; the ``header`` inside aeb-00177's
    ``article`` holds its headline and is not."""
    nodes = parse_page(page_bytes(fixture("aeb-00064.html"))).nodes
    banner = next(r for r in range(len(nodes)) if nodes.tag[r] == "header"
                  and nodes.ident[r] == "mainHeader")
    assert read_markup(nodes).weak_attribute[banner]
    nodes = parse_page(page_bytes(fixture("aeb-00177.html"))).nodes
    headers = [r for r in range(len(nodes)) if nodes.tag[r] == "header"]
    assert headers and not read_markup(nodes).weak_attribute[headers].any()


def test_text_only_a_screen_reader_reads_is_not_in_the_body():
    # wcxb_dev (CC-BY-4.0): a NodeBB forum topic labels each post for screen readers ("wrote on
    # last edited by", "Offline" beside the avatar, in "sr-only" spans), and a WooCommerce
    # product page its quantity field ("Engraved Silver Fashion Belt Buckle quantity", a
    # "screen-reader-text" label). No reader sees them; their golds leave them out.
    gold, result = _extract("wcxb_dev-00538.html")
    lines = set(result.body.splitlines())
    assert "wrote on last edited by" not in lines and not any(
        line.endswith(" Offline") and len(line) < 12 for line in lines)
    assert "I'm happy to announce RC1 (that's Release Candidate 1!!) of NodeBB v4." in result.body
    gold, result = _extract("wcxb_dev-00584.html")
    assert "Engraved Silver Fashion Belt Buckle quantity" not in result.body
    assert "engraved and oxidized silver scrolls with twisted silver rope border" in result.body


def test_screen_reader_rows_are_named_by_whole_classes_and_hidden_skip_links():
    # a "hidden" class folds a tab or a "read more" that a script opens: only a skip link (a
    # link to a place on the same page) so classed is for screen readers alone
    page = parse_page(b"<html><body><article><p>Story one two three.</p>"
                      b"<span class='sr-only'>Opens in a new tab</span>"
                      b"<a class='hidden' href='#continue'>Continue reading the main story</a>"
                      b"<div class='tab hidden'><p>A folded tab's text.</p></div>"
                      b"<span class='not-sr-only'>Shown</span>"
                      b"<a class='hidden' href='/elsewhere'>Elsewhere</a></article></body></html>")
    texts = [page.nodes.inner_text(row) for row in screen_reader_rows(page)]
    assert texts == ["Opens in a new tab", "Continue reading the main story"]
    body = extract(page).body
    assert "Opens in a new tab" not in body and "Continue reading" not in body
    assert "A folded tab's text." in body and "Shown" in body


CLEANEVAL = Path("~/.cache/newsdata/cleanportaleval").expanduser()


@pytest.mark.skipif(not (CLEANEVAL / "gold.jsonl").is_file(),
                    reason=f"dataset cleanportaleval not found at {CLEANEVAL}")
def test_the_bbc_s_hidden_skip_links_are_not_in_the_body():
    # cleanportaleval (research use: read from the dataset, not copied here): the BBC sets
    # "<a class=hidden href=#story_continues_1>Continue reading the main story</a>" before each
    # box inside a story; its gold leaves the label out, the boxes' text in
    with (CLEANEVAL / "gold.jsonl").open(encoding="utf-8") as lines:
        golds = [json.loads(line) for line in lines if line.strip()]
    gold = next(g for g in golds if g["id"] == "bbc.co.uk_news_06")
    document = (CLEANEVAL / gold["file"]).read_bytes()
    assert document.count(b'class="hidden" href="#story_continues_') >= 2
    body = extract(document).body
    assert "Continue reading the main story" not in body
    assert "It's the most widely watched factual TV programme in the world" in body


def test_a_related_links_heading_left_alone_in_the_body_goes():
    # trafilatura_eval (Apache-2.0): emotion.de's "Mehr Themen:" and larepublica.net's "NOTAS
    # RELACIONADAS" headed links that went as furniture; the headings stayed as lines of their
    # own (each among the page's unwanted snippets)
    for name, label, kept in (
            ("trafilatura_eval-00783.html", "Mehr Themen:", "Selfcare"),
            ("trafilatura_eval-00964.html", "NOTAS RELACIONADAS", "Costa Rica")):
        gold, result = _extract(name)
        assert label in gold["without"] and label not in result.body.splitlines()
        assert kept in result.body


def test_is_related_label_takes_headings_alone_but_not_a_page_s_own_sections():
    assert is_related_label("Auch interessant:") and is_related_label("  You may also like... ")
    assert is_related_label("Related Stories") and is_related_label("Te puede interesar")
    # a label with words after it, the lone "also", a sentence, a docs page's "See also"
    assert not is_related_label("Related: Fed holds rates") and not is_related_label("Also")
    assert not is_related_label("Related stories are below, said the editor of the paper.")
    assert not is_related_label("See also") and not is_related_label("Read more:")


def test_a_forum_s_reply_counts_are_not_lines_of_the_thread():
    # wcxb_dev (CC-BY-4.0): toyotanation.com (XenForo) shows "0 Reply" / "1 Reply" under each
    # post, a control's count, kept as lines of the thread; its gold leaves them out
    gold, result = _extract("wcxb_dev-00525.html")
    lines = [line.strip() for line in result.body.splitlines()]
    assert not [line for line in lines if line in ("0 Reply", "1 Reply")]
    assert "0 Reply" not in gold["body"]
    assert "I guess I’m the first, 2024 Highlander with the liftgate led lights" in result.body


def test_a_form_s_labels_are_not_lines_of_an_article():
    # trafilatura_eval (Apache-2.0): attac.org's article sets its newsletter form ("Prénom",
    # "Code postal (obligatoire)", the checkboxes' long labels) inside the story's region; the
    # controls go at parse time, their <label>s stayed as lines. (This test read wcxb_dev's
    # forthea.com service page until the page type's address rules typed it other, as its gold
    # says: the labels rule is for articles only, see ARTICLE_FORM_LABELS.)
    gold, result = _extract("trafilatura_eval-00607.html")
    labels = ("Prénom", "Nom", "Code postal (obligatoire)", "Pays (obligatoire)")
    assert result.page_type == "article"
    assert not {line.strip() for line in result.body.splitlines()}.intersection(labels)
    assert all(snippet in result.body for snippet in gold["with"])


def test_a_later_h1_does_not_keep_the_story_s_row_out():
    # readability_testpages (Apache-2.0), lazy-image-1 on Medium: the story is cut into
    # `div.n.p` rows at each picture (the captions are furniture), and the later rows head their
    # sections with `h1`s; a row holding an h1 was never a cousin of the region, and every row
    # after the second picture was lost (page F1 0.84 -> 0.97)
    gold, result = _extract("readability_testpages-00051.html")
    later = "And now our application is able to serve more than 200,000 requests in 20 seconds"
    assert later in " ".join(gold["body"].split()) and later in " ".join(result.body.split())
    # built so: a later row whose part opens with an h1 joins, the row holding the page's first
    # h1 (its headline) does not
    prose = b"A sentence of the story, long enough to count as its prose here. " * 3
    picture = b"<div class=pic><figure><img src=a.jpg></figure></div>"
    page = parse_page(b"<html><body><div class=s><div class=row><div class=in><h1>The headline"
                      b"</h1><p>" + prose + b"</p></div></div>" + picture + b"<div class=row>"
                      b"<div class=in><p>" + prose * 3 + b"</p></div></div>" + picture
                      + b"<div class=row><div class=in><h1>A later part</h1><p>" + prose
                      + b"</p></div></div></div></body></html>")
    region = [row for row, name in enumerate(page.nodes.classes) if name == "in"][1]
    joined = [page.nodes.inner_text(row) for row in story_siblings(page.nodes, region)]
    assert len(joined) == 1 and joined[0].startswith("A later part")


def test_a_list_of_links_between_the_story_s_paragraphs_is_the_story_s():
    # cx_bbc (MIT), uk-politics-40154519: "Latest updates as police raid properties" / "Victims
    # of the London Bridge attack", a story-body list of two links set between paragraphs, which
    # the gold keeps (on 33 cx_bbc pages, 96 of 101 such items); CleanTree pruned it as a link
    # node. A list of links after the story's last paragraph is still pruned (see
    # test_attenuation.test_link_lists_are_pruned_but_inline_links_kept).
    gold, result = _extract("cx_bbc-00066.html")
    line = "Victims of the London Bridge attack"
    assert line in gold["body"] and line in result.body
    # before the story's end matter only (livescience.com in aeb), it is further reading
    links = b"<ul><li><a href=/1>Another story one</a></li><li><a href=/2>Another story two</a></li></ul>"
    prose = b"<p>" + b"Rain fell on the town all night long, and the river rose. " * 4 + b"</p>"
    for after, kept in ((prose * 3, True), (b"<p><em>Originally published on Live Science.</em></p>", False)):
        main = extract_main_text(parse_page(b"<html><body><div>" + prose * 2 + links + after
                                            + b"</div></body></html>"))
        assert ("Another story one" in main.text) is kept


def test_a_block_before_the_region_joins_it_though_it_holds_links():
    # readability_testpages (Apache-2.0), engadget: the review's first paragraphs are a block
    # of their own (`o-article_block`) before the region, with links in their sentences; blocks
    # of another class than the region's had to be link-free, and the lead was lost
    gold, result = _extract("readability_testpages-00033.html")
    lead = "is the ultimate video game system"
    assert lead in gold["body"] and lead in result.body
    # a linked block before the region whose text is not all in paragraphs (a shop's banner)
    # stays out
    story = b"<p>" + b"The ferry leaves the harbour every morning at six, weather permitting. " * 6
    page = parse_page(b"<html><body><div><div class=banner><span>" + b"Free shipping on orders "
                      b"over 75 dollars and easy returns for everyone. " * 2 + b"</span><a href=/s>"
                      b"Shop now</a></div><div class=lead><p>" + b"A first paragraph of the "
                      b"story with <a href=/x>a link</a> in it, long enough to be prose. " * 2
                      + b"</p></div><div class=story>" + story + b"</p>" + story
                      + b"</p></div></div></body></html>")
    region = page.nodes.classes.index("story")
    joined = {page.nodes.classes[row] for row in story_siblings(page.nodes, region)}
    assert joined == {"lead"}


def test_an_infographic_among_the_story_s_paragraphs_is_furniture():
    # cx_bbc (MIT), world-asia-pacific-16567315: a country profile's facts ("Capital: Hanoi",
    # "Population 89.7 million", the leaders) are BBC's `newsspec_infographic_template`, set among
    # the story's paragraphs, which the gold leaves out
    gold, result = _extract("cx_bbc-00160.html")
    assert "Capital: Hanoi" not in gold["body"] and "Capital: Hanoi" not in result.body
    assert result.body.startswith(_first_line(gold["body"])[:60])


@pytest.mark.parametrize("name, lead", [
    # readability_testpages (Apache-2.0): aktualne.cz names its lead "article__perex" (Czech and
    # Slovak newsrooms' word for it), la-nacion "bajada" (Spanish); both above the body's
    # container, where the walk stops.
    ("readability_testpages-00006.html", "Zázrak jedné sezony? West Ham dává pochybovačům"),
    ("readability_testpages-00050.html", None),
    # trafilatura_eval (Apache-2.0): gay.ch is a Plone site, whose lead is "documentDescription".
    ("trafilatura_eval-00638.html", None),
])
def test_a_lead_named_in_other_languages_and_by_plone_joins_the_story(name, lead):
    gold, result = _extract(name)
    if lead is not None:
        assert lead in gold["body"] and lead in result.body
    if gold.get("with"):
        assert all(snippet in result.body for snippet in gold["with"]), name
    if gold.get("body"):  # the gold's first line, the lead, opens the body
        first = " ".join(_first_line(gold["body"]).split())[:60]
        assert first in " ".join(result.body.split())


@pytest.mark.parametrize("name", [
    # trafilatura_eval (Apache-2.0): a press release's "Kontakt:" with a name and a telephone
    # number (baumev.de), springer.com's "Weitere Informationen" links and "Kontakt" block after
    # the story; the golds list the headings among the unwanted snippets.
    "trafilatura_eval-00751.html", "trafilatura_eval-00942.html",
])
def test_a_trailing_appendix_of_contacts_and_pointers_is_no_part_of_the_body(name):
    _assert_snippets(*_extract(name), name)


def test_a_trailing_section_heading_followed_by_prose_stays():
    from extractors import MainText, _without_trailing_section
    prose = "The publisher, a youth organisation, " + "works with schools and parishes. " * 8
    kept = MainText("The story.\nWeitere Informationen\n" + prose, None, "")
    assert _without_trailing_section(kept) is kept
    cut = _without_trailing_section(MainText(
        "The story.\nKontakt:\nJan Koch\nTelefon +49 40 49071106", None, ""))
    assert cut.text == "The story."


def test_the_fallback_text_inside_video_and_audio_is_no_part_of_the_body():
    # A browser that plays <video>/<audio> never shows what is inside them: the fallback for one
    # that cannot. parallels.com's product page (trafilatura_eval) set its <source> tags' ends as
    # text there, 'type="video/mp4">', which stood in the body twice.
    page = parse_page(page_bytes(fixture("trafilatura_eval-00176.html")))
    assert not {"video", "audio"} & set(page.nodes.tag)
    _, result = _extract("trafilatura_eval-00176.html")
    assert result.body and "Parallels Desktop" in result.body
    assert 'type="video/mp4">' not in result.body


def test_a_heading_linked_back_to_the_page_s_contents_stays():
    # readability_testpages (Apache-2.0): mercurial's Sphinx page links each section heading to
    # its contents (``a.toc-backref`` and ``a.headerlink``, both ``href="#..."``): two links and
    # no other text made the heading a link node; the gold keeps every one.
    gold, result = _extract("readability_testpages-00065.html")
    for heading in ("Sharing with a single developer", "Example 1: Amend a shared changeset",
                    "Example 6: Divergent changesets"):
        assert heading in gold["body"], heading
        assert any(line.startswith(heading) for line in result.body.splitlines()), heading
    # lifehacker's cards of related stories head each teaser with a heading that links to another
    # page: still a link node, out of the body as out of the gold.
    gold, result = _extract("readability_testpages-00057.html")
    teaser = "How Your Brain Corrupts Your Shopping Choices"
    assert teaser not in gold["body"] and teaser not in result.body


def test_a_list_of_links_under_a_part_s_heading_stays():
    # cx_bbc (MIT) health-40644896: "Charlie Gard: A legal timeline", a crosshead and then a list
    # whose items are each a date and a link, the story going on after it: a link node, pruned
    # while only a paragraph before the list kept it (its silver gold keeps the timeline).
    gold, result = _extract("cx_bbc-00026.html")
    for item in ("8 June: 8 Appeal is dismissed",
                 "27 June: 27 European Court of Human Rights reject plea to intervene in case"):
        assert item in gold["body"], item
        assert item in result.body.splitlines(), item
    # the same list under a heading at the story's end (no story after it) is still a link node
    story = b"<p>" + b"The court heard the parents' appeal on Tuesday afternoon. " * 10 + b"</p>"
    links = b"<ul>" + b"".join(b"<li><a href=/s%d>Another story %d</a></li>" % (i, i)
                               for i in range(4)) + b"</ul>"
    page = parse_page(b"<html><body><div>" + story + b"<h2>Timeline</h2>" + links + story
                      + b"<h2>More</h2>" + links.replace(b"Another", b"Further")
                      + b"</div></body></html>")
    text = extract_main_text(page, content=furniture_mask(page.nodes)).text
    assert "Another story 1" in text and "Further story 1" not in text


def test_a_post_embedded_in_a_block_named_social_embed_stays():
    # cx_bbc (MIT) world-asia-40871854 and aeb (MIT) nj.com: tweets the story quotes sit in
    # ``div.social-embed`` (bbc.com) and ``div.social-media-embed`` (nj.com); "social*" named
    # them sharing furniture, while both golds keep the tweets (boilerplate.EMBEDDED_POST_WORDS).
    for name, tweet in (("cx_bbc-00112.html", 'When national media says Guam is "home to 1000s'),
                        ("aeb-00044.html", "the rest of South Dakota's anti-drug campaigns")):
        gold, result = _extract(name)
        assert tweet in gold["body"], name
        assert tweet in result.body, name
    # sharing buttons named "social" alone, or "social" and "embed" beside another furniture word
    # (an embed code's share button), still go
    story = b"<p>" + b"The council voted on the new budget late on Tuesday evening. " * 8 + b"</p>"
    page = parse_page(b"<html><body><div>" + story
                      + b"<div class='social-embed'><blockquote><p>A quoted post of the mayor's "
                      b"about the budget vote tonight</p></blockquote></div>" + story
                      + b"<div class='social-links'><p>Follow us on the usual networks today</p></div>"
                      + b"<div class='social-share-embed'><p>Copy this embed code for your site</p></div>"
                      + story + b"</div></body></html>")
    text = extract_main_text(page, content=furniture_mask(page.nodes)).text
    assert "about the budget vote tonight" in text
    assert "Follow us" not in text and "embed code" not in text


def test_teasers_of_other_stories_inside_the_story_s_region_are_left_out():
    # ndr.de's podcast page (trafilatura_eval): three "teaser" boxes (a linked headline and its
    # summary: "Was Sie zum Coronavirus wissen müssen", "Regelmäßig beantwortet Virus-Forscher
    # ...") sit among the episode's paragraphs; bmel.de: "c-teaser" cards of other pages
    # ("Kommission Gleichwertige Lebensverhältnisse") after the text. Both unwanted snippets of
    # the gold; the story's own paragraphs stay (extractors.TEASER_WORDS).
    for name, gone in (("trafilatura_eval-00323.html", ("Was Sie zum Coronavirus wissen müssen",
                                                       "Themen: Kritik aus dem Internet")),
                       ("trafilatura_eval-00657.html", ("Kommission Gleichwertige",))):
        gold, result = _extract(name)
        tp, fn, fp, tn = snippet_counts(result.body, gold["with"], gold["without"])
        assert (tp, fn) == (len(gold["with"]), 0)
        for text in gone:
            assert text in gold["without"] or any(text in s for s in gold["without"])
            assert text not in result.body
