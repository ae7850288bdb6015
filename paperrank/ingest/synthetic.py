"""A deterministic synthetic venue: plausible papers, ICLR-like reviews, and its true themes.

The demo must run with no network and no real data, and the benchmarks need venues of any
size, so both draw from this one generator. The same seed always gives the same venue.
Reviews follow ICLR 2026's form (rating in {0,2,4,6,8,10}, confidence 1-5, the rest 1-4) and
are driven by a latent paper quality, so the ranking has structure to find. The true theme of
each paper is kept beside it (`--labels-out`), which lets the offline classifier be scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from paperrank.core.config import ICML_2026_ACCEPTED
from paperrank.core.errors import PaperrankError
from paperrank.core.schema import SIGNALS

SIGNAL_NAMES = SIGNALS
RATING_SCALE = np.array([0, 2, 4, 6, 8, 10])

# theme -> (share of papers, primary areas, title heads, title tails, abstract sentences)
THEMES: dict[str, tuple[float, list[str], list[str], list[str], list[str]]] = {
    "Agentic AI": (
        0.11,
        ["foundation or frontier models, including LLMs", "reinforcement learning"],
        ["Tool-Using", "Long-Horizon", "Self-Correcting", "Multi-Agent", "Deep Research",
         "Web-Browsing", "Memory-Augmented", "Planning"],
        ["LLM Agents for Software Engineering", "Agents with Evolving Rubrics",
         "Agentic Reinforcement Learning", "Agents that Search the Web",
         "Coding Agents on Real Repositories", "Function Calling at Scale"],
        ["We study autonomous LLM agents that plan and act over many steps with tools.",
         "Our agent calls search, browsing and code-execution tools and keeps a memory of past steps.",
         "We train the agent with multi-turn reinforcement learning from verifiable task rewards.",
         "On web navigation and software engineering benchmarks the agent resolves more tasks.",
         "Multi-agent collaboration and tool use make the agent robust on long-horizon tasks."],
    ),
    "AI Systems": (
        0.12,
        ["infrastructure, software libraries, hardware, systems, etc.",
         "foundation or frontier models, including LLMs", "optimization"],
        ["Speculative", "4-Bit", "Sparse", "KV-Cache-Efficient", "Disaggregated", "Kernel-Fused",
         "Quantization-Aware", "Pipeline-Parallel"],
        ["Decoding for Fast LLM Inference", "Serving of Large Language Models",
         "Attention Kernels on GPUs", "Training of Trillion-Parameter Models",
         "Quantization of Reasoning Models", "Pruning without Accuracy Loss"],
        ["We make large language model inference faster and cheaper on GPUs.",
         "Our method combines quantization, sparsity and KV-cache compression in custom kernels.",
         "A serving scheduler separates prefill and decode to raise throughput and cut latency.",
         "Distributed training with pipeline and tensor parallelism reaches higher GPU utilization.",
         "We report a 2.3x speedup in throughput with memory savings at equal accuracy."],
    ),
    "Physical AI": (
        0.06,
        ["applications to robotics, autonomy, planning", "reinforcement learning"],
        ["Vision-Language-Action", "Sim-to-Real", "Dexterous", "Legged", "Embodied",
         "Diffusion-Policy", "Whole-Body", "Offline"],
        ["Robot Manipulation from Demonstrations", "Locomotion on a Quadruped",
         "Policies for Autonomous Driving", "World Models for Robot Control",
         "Imitation Learning for Humanoids", "Grasping in Clutter"],
        ["We train robot policies for manipulation and locomotion on real hardware.",
         "A vision-language-action model maps camera images and instructions to robot actions.",
         "Policies learned in simulation transfer to a physical robot arm and a quadruped.",
         "Imitation learning from demonstrations is followed by reinforcement learning finetuning.",
         "The embodied agent completes tabletop tasks with a higher success rate than baselines."],
    ),
    "Healthcare & Life Sciences": (
        0.07,
        ["applications to physical sciences (physics, chemistry, biology, etc.)",
         "applications to neuroscience & cognitive science", "generative models"],
        ["Equivariant", "Flow-Matching", "Genomic", "Clinical", "Single-Cell", "Protein",
         "Molecular", "Multimodal Medical"],
        ["Protein Structure Design", "Drug Discovery with Diffusion Models",
         "Foundation Models for DNA Sequences", "Prediction from Electronic Health Records",
         "Decoding Neural Recordings", "Retrosynthesis Planning"],
        ["We design proteins and small molecules with generative models for drug discovery.",
         "Our genomics foundation model reads DNA and single-cell gene expression data.",
         "On clinical electronic health records and medical imaging the model improves diagnosis.",
         "Neuroscience recordings of neurons are decoded into behaviour and stimuli.",
         "Binding affinity, protein folding and molecular property benchmarks improve markedly."],
    ),
    "Sustainable AI": (
        0.025,
        ["applications to physical sciences (physics, chemistry, biology, etc.)",
         "learning on time series and dynamical systems"],
        ["Carbon-Aware", "Energy-Efficient", "Climate", "Probabilistic Weather", "Green",
         "Drought", "Grid-Scale", "Emission"],
        ["Forecasting with Foundation Models", "Accounting for Training Emissions",
         "Downscaling of Climate Projections", "Scheduling of Data-Center Workloads",
         "Prediction of Extreme Weather", "Measurement of AI Energy Use"],
        ["We forecast weather and climate variables with a data-driven foundation model.",
         "Our study measures the energy consumption and carbon emissions of training and inference.",
         "Drought, flood and extreme weather forecasts support environmental decisions.",
         "Carbon-aware scheduling shifts data-center workloads to times of low-emission energy.",
         "The approach lowers emissions and energy use of large models for sustainability."],
    ),
    "Other": (
        0.615,
        ["learning theory", "optimization", "generative models",
         "alignment, fairness, safety, privacy, and societal considerations",
         "interpretability and explainable AI",
         "unsupervised, self-supervised, semi-supervised, and supervised representation learning",
         "probabilistic methods (Bayesian methods, variational inference, sampling, UQ, etc.)",
         "causal reasoning", "learning on graphs and other geometries & topologies",
         "applications to computer vision, audio, language, and other modalities"],
        ["Provable", "Implicit", "Contrastive", "Bayesian", "Robust", "Causal", "Spectral",
         "Variational"],
        ["Generalization Bounds for Deep Networks", "Representation Learning on Graphs",
         "Image Generation with Score Models", "Fairness under Distribution Shift",
         "Interpretability of Transformer Circuits", "Convergence of Adaptive Optimizers"],
        ["We study a theoretical question about learning and generalization.",
         "Our analysis gives convergence rates for stochastic gradient methods.",
         "Experiments on image classification and language benchmarks confirm the theory.",
         "The method learns representations that are robust to distribution shift.",
         "We characterise when the estimator is consistent and give matching lower bounds."],
    ),
}
DATASETS_AREA = "datasets and benchmarks"
DATASETS_SHARE = 0.08  # of papers, any theme, get the datasets-and-benchmarks primary area


@dataclass
class Venue:
    """A generated venue: one row per paper, one row per review, and the true themes."""

    papers: pd.DataFrame
    reviews: pd.DataFrame
    themes: pd.DataFrame


def generate(n_papers: int = ICML_2026_ACCEPTED, seed: int = 2026, venue: str = "SYNTH 2026",
             min_reviews: int = 3, max_reviews: int = 6) -> Venue:
    """Generate a venue; vectorised so that a million papers take seconds, not minutes."""
    if n_papers < 1:
        raise PaperrankError("a venue needs at least one paper")
    rng = np.random.default_rng(seed)
    names = list(THEMES)
    shares = np.array([THEMES[t][0] for t in names])
    theme_index = rng.choice(len(names), size=n_papers, p=shares / shares.sum())
    prefix = re.sub(r"[^a-z0-9]", "", venue.lower()) + "-"  # ids stay unique across venues
    paper_ids = np.char.add(prefix, np.char.zfill(np.arange(1, n_papers + 1).astype(str), 7))

    titles = np.empty(n_papers, dtype=object)
    abstracts = np.empty(n_papers, dtype=object)
    areas = np.empty(n_papers, dtype=object)
    for i, theme in enumerate(names):
        rows = np.flatnonzero(theme_index == i)
        _, theme_areas, heads, tails, sentences = THEMES[theme]
        head = rng.integers(0, len(heads), rows.size)
        tail = rng.integers(0, len(tails), rows.size)
        heads_arr, tails_arr = np.array(heads, dtype=object), np.array(tails, dtype=object)
        titles[rows] = heads_arr[head] + " " + tails_arr[tail]
        order = np.argsort(rng.random((rows.size, len(sentences))), axis=1)[:, :3]
        sentence_arr = np.array(sentences, dtype=object)
        abstracts[rows] = (sentence_arr[order[:, 0]] + " " + sentence_arr[order[:, 1]] + " "
                           + sentence_arr[order[:, 2]])
        areas[rows] = np.array(theme_areas, dtype=object)[rng.integers(0, len(theme_areas),
                                                                       rows.size)]
    is_dataset = rng.random(n_papers) < DATASETS_SHARE
    areas[is_dataset] = DATASETS_AREA
    titles[is_dataset] = titles[is_dataset] + ": A Benchmark"
    titles = _acronyms(rng, n_papers) + ": " + titles
    is_oral = rng.random(n_papers) < 0.04

    papers = pd.DataFrame({
        "paper_id": paper_ids.astype(object),
        "venue": venue,
        "title": titles,
        "abstract": abstracts,
        "primary_area": areas,
        "status": np.where(is_oral, "Oral", "Poster").astype(object),
        "forum_url": np.char.add("https://openreview.net/forum?id=", paper_ids).astype(object),
        "pdf_url": np.char.add("https://openreview.net/pdf?id=", paper_ids).astype(object),
    })
    reviews = _reviews(rng, paper_ids, theme_index, min_reviews, max_reviews)
    themes = pd.DataFrame({
        "paper_id": paper_ids.astype(object),
        "category": np.array(names, dtype=object)[theme_index],
    })
    return Venue(papers, reviews, themes)


def _acronyms(rng: np.random.Generator, n: int) -> np.ndarray:
    """Method names like "KVLAD" so that titles read like papers and rarely repeat."""
    letters = rng.integers(ord("A"), ord("Z") + 1, (n, 6), dtype=np.uint8)
    lengths = rng.integers(3, 7, n)
    words = letters.view("S6").ravel().astype(str)
    return np.array([w[:k] for w, k in zip(words, lengths, strict=True)], dtype=object)


def _reviews(rng: np.random.Generator, paper_ids: np.ndarray, theme_index: np.ndarray,
             min_reviews: int, max_reviews: int) -> pd.DataFrame:
    """Scores driven by a latent quality per paper plus reviewer noise, on ICLR's scales."""
    n_papers = paper_ids.size
    counts = rng.integers(min_reviews, max_reviews + 1, n_papers)
    owner = np.repeat(np.arange(n_papers), counts)
    position = np.arange(owner.size) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    theme_offset = rng.normal(0, 0.15, len(THEMES))[theme_index]
    quality = (rng.normal(0, 1, n_papers) + theme_offset)[owner]
    noise = rng.normal(0, 0.9, owner.size)
    rating_index = np.clip(np.rint(2.9 + 0.9 * quality + noise), 0, 5).astype(int)

    def four_point(weight: float) -> np.ndarray:
        return np.clip(np.rint(2.7 + weight * quality + rng.normal(0, 0.7, owner.size)), 1, 4)

    return pd.DataFrame({
        "paper_id": paper_ids.astype(object)[owner],
        "review_id": np.char.add(np.char.add(paper_ids[owner], "#r"), position.astype(str)),
        "reviewer": np.char.add("Reviewer ", position.astype(str)).astype(object),
        "rating": RATING_SCALE[rating_index].astype(float),
        "confidence": np.clip(np.rint(rng.normal(3.6, 0.8, owner.size)), 1, 5),
        "soundness": four_point(0.45),
        "contribution": four_point(0.5),
        "presentation": four_point(0.35),
    })


def to_paperlists(venue: Venue) -> pa.Table:
    """The paperlists layout: one row per paper, each score a per-reviewer list."""
    papers = venue.papers.rename(columns={
        "paper_id": "openreview_id", "forum_url": "site", "pdf_url": "pdf_link",
    }).drop(columns=["venue"])
    table = pa.Table.from_pandas(papers, preserve_index=False)
    counts = venue.reviews.groupby("paper_id", sort=False).size()
    counts = counts.reindex(venue.papers["paper_id"]).to_numpy()
    offsets = pa.array(np.concatenate([[0], np.cumsum(counts)]), type=pa.int32())
    no_keywords = pa.array([[]] * len(papers), type=pa.list_(pa.string()))
    table = table.append_column("keywords", no_keywords)
    for signal in SIGNAL_NAMES:
        values = pa.array(venue.reviews[signal].to_numpy().astype(np.int64))
        table = table.append_column(signal, pa.ListArray.from_arrays(offsets, values))
    return table


def write_venue(out: Path, papers: int = ICML_2026_ACCEPTED, seed: int = 2026,
                venue: str = "SYNTH 2026", labels_out: Path | None = None) -> None:
    """Generate a venue and write it as a paperlists file (.parquet or .jsonl); with
    `labels_out`, also each paper's true theme (parquet: paper_id, category)."""
    made = generate(papers, seed, venue)
    table = to_paperlists(made)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix == ".parquet":
        pq.write_table(table, out)
    elif out.suffix == ".jsonl":
        table.to_pandas().to_json(out, orient="records", lines=True, force_ascii=False)
    else:
        raise PaperrankError(f"{out}: write .parquet or .jsonl")
    print(f"wrote {len(made.papers)} papers and {len(made.reviews)} reviews to {out}")
    if labels_out:
        labels_out.parent.mkdir(parents=True, exist_ok=True)
        made.themes.to_parquet(labels_out, index=False)
        print(f"wrote the true theme of each paper to {labels_out}")
