"""Expert families of the seeds as SymPy expressions with named parameters.

Every expert is a function ``h(x, η)`` of a scalar input ``x`` (input dimension d = 1) and a
tuple of named real parameters ``η``. Feed-forward experts of seed 002 (Example after
Definition 1) are ``φ(a x + b)``; the two-layer experts of seed 000 (reply to Q1) are
``φ(x W1 + b1) W2 (+ b2)`` with a small hidden width. ReLU is written as the piecewise
function ``Piecewise((z, z > 0), (0, True))`` so that SymPy differentiates it branch by
branch, which is the almost-everywhere derivative.

Examples
--------
>>> e = get_expert("ffn-relu")
>>> e.params
(a, b)
>>> e.expr.subs({e.x: 2, e.params[0]: 1, e.params[1]: -1})
1
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

__all__ = [
    "EXPERTS",
    "Expert",
    "X",
    "ffn",
    "gelu",
    "get_expert",
    "linear",
    "poly_expert",
    "relu",
    "sigmoid",
    "two_layer",
]

#: The scalar input of every expert.
X = sp.Symbol("x", real=True)


@dataclass(frozen=True)
class Expert:
    """An expert function ``h(x, η)``.

    Attributes
    ----------
    name : str
        Short identifier, e.g. ``"ffn-tanh"``.
    expr : sympy.Expr
        The expression ``h(x, η)``.
    x : sympy.Symbol
        The input variable.
    params : tuple of sympy.Symbol
        The parameters ``η`` in a fixed order.
    description : str
        The formula in the seeds' words.
    """

    name: str
    expr: sp.Expr
    x: sp.Symbol
    params: tuple[sp.Symbol, ...]
    description: str


def relu(z: sp.Expr) -> sp.Expr:
    """ReLU(z) = max(z, 0) as a piecewise expression.

    Examples
    --------
    >>> relu(sp.Integer(-3)), relu(sp.Integer(2))
    (0, 2)
    """
    return sp.Piecewise((z, z > 0), (0, True))


def sigmoid(z: sp.Expr) -> sp.Expr:
    """The logistic function 1 / (1 + exp(-z)).

    Examples
    --------
    >>> sigmoid(sp.Integer(0))
    1/2
    """
    return 1 / (1 + sp.exp(-z))


def gelu(z: sp.Expr) -> sp.Expr:
    """GELU(z) = z Φ(z) = z (1 + erf(z / √2)) / 2, the exact erf form.

    Examples
    --------
    >>> gelu(sp.Integer(0))
    0
    """
    return z * (1 + sp.erf(z / sp.sqrt(2))) / 2


def linear() -> Expert:
    """The linear expert h(x, (a, b)) = a x + b (seed 002, Example).

    Examples
    --------
    >>> linear().expr
    a*x + b
    """
    a, b = sp.symbols("a b", real=True)
    return Expert("linear", a * X + b, X, (a, b), "h(x,(a,b)) = a^T x + b")


def ffn(activation: str) -> Expert:
    """The one-layer FFN expert h(x, (a, b)) = φ(a x + b) (seed 002, Example).

    Parameters
    ----------
    activation : {"relu", "tanh", "sigmoid", "gelu", "poly2", "poly3"}
        φ; ``polyP`` is :math:`z^P`.

    Examples
    --------
    >>> ffn("poly2").expr
    (a*x + b)**2
    """
    acts: dict[str, Callable[[sp.Expr], sp.Expr]] = {
        "relu": relu,
        "tanh": sp.tanh,
        "sigmoid": sigmoid,
        "gelu": gelu,
        "poly2": lambda z: z**2,
        "poly3": lambda z: z**3,
    }
    if activation not in acts:
        raise ValueError(f"activation must be one of {sorted(acts)}, got {activation!r}")
    a, b = sp.symbols("a b", real=True)
    return Expert(
        f"ffn-{activation}",
        acts[activation](a * X + b),
        X,
        (a, b),
        f"h(x,(a,b)) = {activation}(a^T x + b)",
    )


def two_layer(activation: str, width: int = 1, last_bias: bool = True) -> Expert:
    """Two-layer FFN φ(x W1 + b1) W2 (+ b2) with hidden width ``width`` (seed 000).

    Parameters
    ----------
    activation : {"relu", "gelu"}
        φ.
    width : int
        Hidden width, 1 to 4 (1-2 suffice for the arguments in the checks).
    last_bias : bool
        Whether the last layer has the bias b2.

    Examples
    --------
    >>> two_layer("relu", width=1, last_bias=False).params
    (W1_1, b1_1, W2_1)
    """
    acts = {"relu": relu, "gelu": gelu}
    if activation not in acts:
        raise ValueError(f"activation must be one of {sorted(acts)}, got {activation!r}")
    if not isinstance(width, int) or not 1 <= width <= 4:
        raise ValueError(f"width must be an integer in [1, 4], got {width!r}")
    params: list[sp.Symbol] = []
    expr: sp.Expr = sp.Integer(0)
    for i in range(1, width + 1):
        w1, b1, w2 = sp.symbols(f"W1_{i} b1_{i} W2_{i}", real=True)
        params += [w1, b1, w2]
        expr += acts[activation](w1 * X + b1) * w2
    tag = "bias" if last_bias else "nobias"
    text = f"{activation}(x W1 + b1) W2" + (" + b2" if last_bias else "")
    if last_bias:
        b2 = sp.Symbol("b2", real=True)
        params.append(b2)
        expr += b2
    return Expert(f"two-layer-{activation}-{tag}", expr, X, tuple(params), text)


def poly_expert() -> Expert:
    """The polynomial expert h(x, η) = (η x)² of seeds 002 and 000.

    Examples
    --------
    >>> poly_expert().expr
    eta**2*x**2
    """
    eta = sp.Symbol("eta", real=True)
    return Expert("poly-expert", (eta * X) ** 2, X, (eta,), "h(x, eta) = (eta x)^2")


#: Constructors of the named expert families, width 1 for the two-layer ones.
EXPERTS: dict[str, Callable[[], Expert]] = {
    "linear": linear,
    "ffn-relu": lambda: ffn("relu"),
    "ffn-tanh": lambda: ffn("tanh"),
    "ffn-sigmoid": lambda: ffn("sigmoid"),
    "ffn-gelu": lambda: ffn("gelu"),
    "ffn-poly2": lambda: ffn("poly2"),
    "ffn-poly3": lambda: ffn("poly3"),
    "two-layer-relu-bias": lambda: two_layer("relu", 1, True),
    "two-layer-relu-nobias": lambda: two_layer("relu", 1, False),
    "two-layer-gelu-bias": lambda: two_layer("gelu", 1, True),
    "two-layer-gelu-nobias": lambda: two_layer("gelu", 1, False),
    "poly-expert": poly_expert,
}


def get_expert(name: str) -> Expert:
    """The expert family called ``name`` (a key of :data:`EXPERTS`).

    Examples
    --------
    >>> get_expert("linear").description
    'h(x,(a,b)) = a^T x + b'
    """
    if name not in EXPERTS:
        raise ValueError(f"name must be one of {sorted(EXPERTS)}, got {name!r}")
    return EXPERTS[name]()
